import type { Response, Router } from 'express';
import type { KeyService } from '../keys/key-service.ts';
import { addKeyHandlers, type Caller, idOf, msOf, queryOf } from '../keys-api/key-handlers.ts';
import {
  AdminListKeysQuerySchema,
  GlobalActivityQuerySchema,
  UsageSeriesQuerySchema,
} from './admin-schemas.ts';
import { sessionOf } from './admin-session-routes.ts';

/** The logged-in administrator as the actor, and the client IP as the change's source. */
export function adminCallerOf(res: Response): Caller {
  return {
    actor: { type: 'admin', id: sessionOf(res).userId },
    origin: { sourceIp: res.locals.clientIp as string },
  };
}

/**
 * The key routes of the admin API (behind the session guard): the handlers of `/v2/auth/keys`
 * with the administrator as actor (no escalation rules apply, so `auth:rw` can be granted, and
 * both environments are visible), at `/keys/:id/rotate` and `/keys/:id/close-old-secret`; plus
 * the admin-only usage series and the global activity log.
 */
export function addKeyRoutes(router: Router, keyService: KeyService): void {
  addKeyHandlers(router, {
    keyService,
    callerOf: adminCallerOf,
    listQuerySchema: AdminListKeysQuerySchema,
    paths: {
      collection: '/keys',
      item: '/keys/:id',
      rotate: '/keys/:id/rotate',
      closeOldSecret: '/keys/:id/close-old-secret',
    },
  });

  router.get('/keys/:id/usage/series', async (req, res) => {
    const query = queryOf(UsageSeriesQuerySchema, req);
    const range = { from: msOf(query.from), to: msOf(query.to), stepMinutes: query.stepMinutes };
    res.json(await keyService.getUsageSeries(adminCallerOf(res).actor, idOf(req), range));
  });

  router.get('/activity', async (req, res) => {
    res.json(await keyService.listActivity(queryOf(GlobalActivityQuerySchema, req)));
  });
}
