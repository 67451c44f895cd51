import type { Router } from 'express';
import { addIdentityAnalyticsRoute, addKeyAnalyticsRoute } from '../analytics/analytics-routes.ts';
import type { CallBucketStore } from '../budget/call-buckets.ts';
import type { KeyService } from '../keys/key-service.ts';
import type { KeyStore } from '../store/store.ts';
import { sessionOf } from './admin-session-routes.ts';

/**
 * The analytics routes of the admin API (behind the session guard): `/keys/:id/analytics` and
 * `/identities/:id/analytics`, every environment visible, the administrator as actor.
 */
export function addAdminAnalyticsRoutes(
  router: Router,
  deps: { usage: CallBucketStore; clock: () => number; keyService: KeyService; store: KeyStore },
): void {
  addKeyAnalyticsRoute(router, '/keys/:id/analytics', {
    ...deps,
    actorOf: (res) => ({ type: 'admin', id: sessionOf(res).userId }),
  });
  addIdentityAnalyticsRoute(router, '/identities/:id/analytics', { ...deps, environmentOf: () => null });
}
