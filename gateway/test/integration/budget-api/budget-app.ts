import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateIdentityKeyPair } from '@keygate/identity';
import request from 'supertest';
import { loadConfig } from '../../../src/config.ts';
import { createLogger } from '../../../src/http/logger.ts';
import type { Actor, Environment } from '../../../src/model/model.ts';
import { type OpenedGateway, openGateway } from '../../../src/open-gateway.ts';
import { TEST_TAG_KEY } from '../../support/redis-gateway.ts';
import { startRedis } from '../../support/redis-server.ts';
import { startEchoUpstream } from '../../support/upstream.ts';

export const ADMIN: Actor = { type: 'admin', id: 'adm_budget' };

/** A gateway opened as main.ts opens it, with `auth:rw` keys of both environments and a key without it. */
export interface BudgetApi {
  opened: OpenedGateway;
  /** Tokens: live and test managers (`auth:rw`), and a live key holding only `order:r`. */
  tokens: { live: string; test: string; reader: string };
  /** A request as one of the tokens (default the live manager). */
  call(method: 'get' | 'post' | 'patch' | 'delete', path: string, token?: string): request.Test;
  /** Creates a key as administrator in `environment`; returns its id. */
  adminKey(environment: Environment, extra?: Record<string, unknown>): Promise<string>;
  close(): Promise<void>;
}

/** Opens the gateway on a fresh SQLite file, or on a fresh Redis prefix when `backend` is `redis`. */
export async function openBudgetApi(backend: 'sqlite' | 'redis'): Promise<BudgetApi> {
  const dir = mkdtempSync(join(tmpdir(), 'keygate-budget-api-'));
  const redis = backend === 'redis' ? await startRedis() : null;
  const upstream = await startEchoUpstream('live');
  const { privateJwk } = await generateIdentityKeyPair();
  const config = loadConfig({
    KEYGATE_DATA_DIR: dir,
    KEYGATE_UPSTREAM_LIVE: upstream.url,
    KEYGATE_UPSTREAM_TEST: upstream.url,
    KEYGATE_IDENTITY_PRIVATE_JWK: JSON.stringify(privateJwk),
    KEYGATE_SECRET_TAG_KEY: TEST_TAG_KEY,
    ...(redis ? { REDIS_URL: redis.url, KEYGATE_REDIS_PREFIX: redis.keyPrefix } : {}),
  });
  const opened = await openGateway(config, { logger: createLogger('silent') });
  const create = async (environment: Environment, scopes: string[], extra: Record<string, unknown> = {}) =>
    opened.keyService.createKey(ADMIN, { name: 'k', environment, scopes, ...extra }, { sourceIp: null });
  const [live, test, reader] = await Promise.all([
    create('live', ['auth:rw', 'order:rw']),
    create('test', ['auth:rw', 'order:rw']),
    create('live', ['order:r']),
  ]);
  const tokens = { live: live.secret, test: test.secret, reader: reader.secret };
  return {
    opened,
    tokens,
    call: (method, path, token = tokens.live) =>
      request(opened.gateway.app)[method](path).auth(token, { type: 'bearer' }),
    adminKey: async (environment, extra) => (await create(environment, ['order:r'], extra)).key.id,
    async close() {
      await opened.close();
      await upstream.close();
      await redis?.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
