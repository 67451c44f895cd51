import { Router } from 'express';
import type { Logger } from 'pino';
import type { IpRules } from '../auth/ip-rules.ts';
import type { GatewayConfig } from '../config.ts';
import type { SecretHasher } from '../keys/hasher.ts';
import type { KeyService } from '../keys/key-service.ts';
import type { KeyStore } from '../store/store.ts';

export interface AdminRouterDeps {
  config: Readonly<GatewayConfig>;
  store: KeyStore;
  hasher: SecretHasher;
  keyService: KeyService;
  trustedProxies: IpRules;
  clock: () => number;
  logger: Logger;
}

/** The admin interface at `/admin` (static files) and its API at `/admin/api` (admin session only). */
export function createAdminRouter(_deps: AdminRouterDeps): Router {
  return Router({ caseSensitive: true });
}
