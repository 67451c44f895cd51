import { Router } from 'express';
import type { Logger } from 'pino';
import type { IpRules } from '../auth/ip-rules.ts';
import { assignRequestId } from '../auth/steps.ts';
import type { GatewayConfig } from '../config.ts';
import type { SecretHasher } from '../keys/hasher.ts';
import type { KeyService } from '../keys/key-service.ts';
import type { KeyStore } from '../store/store.ts';
import { createAdminApiRouter } from './admin-api-router.ts';
import { createStaticUi } from './static-ui.ts';

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
export function createAdminRouter(deps: AdminRouterDeps): Router {
  const router = Router({ caseSensitive: true, strict: false });
  router.use(assignRequestId);
  router.use('/api', createAdminApiRouter(deps));
  router.use(createStaticUi(deps.config.adminUiDir));
  return router;
}
