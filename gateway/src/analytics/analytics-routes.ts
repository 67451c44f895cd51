import { AnalyticsQuerySchema, type Environment } from '@keygate/contracts/gateway';
import type { Response, Router } from 'express';
import { principalOf } from '../auth/principal.ts';
import type { CallBucketStore } from '../budget/call-buckets.ts';
import { identityNotFound } from '../keys/key-budget.ts';
import type { KeyService } from '../keys/key-service.ts';
import { idOf, queryOf } from '../keys-api/key-handlers.ts';
import { createManagementRouter } from '../keys-api/router.ts';
import type { Actor } from '../model/model.ts';
import type { KeyStore } from '../store/store.ts';
import { readAnalytics } from './read-analytics.ts';

/** Where analytics are read from, and the time ranges default to. */
export interface AnalyticsDeps {
  usage: CallBucketStore;
  /** Epoch ms. */
  clock: () => number;
}

/**
 * `GET <path>?from&to&granularity&outcome` (path holding `:id`) → a key's calls over time by
 * outcome. The key service decides who sees the key (a key actor: its own environment only, else
 * 404), exactly as for the key itself.
 */
export function addKeyAnalyticsRoute(
  router: Router,
  path: string,
  deps: AnalyticsDeps & { keyService: KeyService; actorOf(res: Response): Actor },
): void {
  router.get(path, async (req, res) => {
    const query = queryOf(AnalyticsQuerySchema, req);
    const key = await deps.keyService.getKey(deps.actorOf(res), idOf(req));
    res.json(await readAnalytics(deps.usage, key.id, query, deps.clock()));
  });
}

/**
 * `GET <path>?from&to&granularity&outcome` (path holding `:id`) → an identity's calls over time
 * (every key of it), by outcome; 404 IDENTITY_NOT_FOUND for an identity the caller may not see
 * (`environmentOf` the caller: a key's own environment only, null for an administrator).
 */
export function addIdentityAnalyticsRoute(
  router: Router,
  path: string,
  deps: AnalyticsDeps & {
    store: Pick<KeyStore, 'getIdentity'>;
    environmentOf(res: Response): Environment | null;
  },
): void {
  router.get(path, async (req, res) => {
    const query = queryOf(AnalyticsQuerySchema, req);
    const id = idOf(req);
    const identity = await deps.store.getIdentity(id);
    const environment = deps.environmentOf(res);
    if (identity === null || (environment !== null && identity.environment !== environment)) {
      throw identityNotFound(id);
    }
    res.json(await readAnalytics(deps.usage, identity.id, query, deps.clock()));
  });
}

/**
 * `GET /:id/analytics` of the keys API, for an `auth:rw` key (its own environment only): mounted
 * at `/v2/auth/keys`, behind the key pipeline, beside the keys router.
 */
export function createKeyAnalyticsRouter(deps: AnalyticsDeps & { keyService: KeyService }): Router {
  const router = createManagementRouter();
  addKeyAnalyticsRoute(router, '/:id/analytics', {
    ...deps,
    actorOf: (res) => ({ type: 'key', id: principalOf(res).key.id }),
  });
  return router;
}

/**
 * `GET /:id/analytics` of the identities API, for an `auth:rw` key (its own environment only):
 * mount it at `/v2/auth/identities`, behind the key pipeline, beside the identities router.
 */
export function createIdentityAnalyticsRouter(
  deps: AnalyticsDeps & { store: Pick<KeyStore, 'getIdentity'> },
): Router {
  const router = createManagementRouter();
  addIdentityAnalyticsRoute(router, '/:id/analytics', {
    ...deps,
    environmentOf: (res) => principalOf(res).key.environment,
  });
  return router;
}
