import type { Request, Response, Router } from 'express';
import type { z } from 'zod';
import { ChangeScopesInputSchema, CloseSecretInputSchema, parseInput } from '../keys/key-input.ts';
import type { KeyService } from '../keys/key-service.ts';
import type { Actor } from '../keys/model.ts';
import { withSecret } from '../keys/public-key.ts';
import { parseJsonBody } from '../keys-api/json-body.ts';
import { ActivityQuerySchema, LogsQuerySchema, UsageQuerySchema } from '../keys-api/query-schemas.ts';
import {
  AdminListKeysQuerySchema,
  GlobalActivityQuerySchema,
  UsageSeriesQuerySchema,
} from './admin-schemas.ts';
import { sessionOf } from './admin-session-routes.ts';

/** The logged-in administrator as the actor, and the client IP as the change's source. */
function callerOf(res: Response): { actor: Actor; origin: { sourceIp: string } } {
  return {
    actor: { type: 'admin', id: sessionOf(res).userId },
    origin: { sourceIp: res.locals.clientIp as string },
  };
}

function queryOf<S extends z.ZodType>(schema: S, req: Request): z.infer<S> {
  return parseInput(schema, req.query);
}

const idOf = (req: Request): string => String(req.params.id);
const msOf = (iso: string | undefined) => (iso === undefined ? undefined : Date.parse(iso));

/**
 * The key routes of the admin API (behind the session guard), mirroring `/v2/auth/keys` with the
 * administrator as actor: no escalation rules apply, so `auth:rw` can be granted, and both
 * environments are visible. Rotate and close-old-secret are `/:id/rotate` and `/:id/close-old-secret`.
 */
export function addKeyRoutes(router: Router, keyService: KeyService): void {
  router.get('/keys', async (req, res) => {
    const query = queryOf(AdminListKeysQuerySchema, req);
    res.json({ items: await keyService.listKeys(callerOf(res).actor, query) });
  });

  router.post('/keys', parseJsonBody, async (req, res) => {
    const { actor, origin } = callerOf(res);
    const created = await keyService.createKey(actor, req.body, origin);
    res.status(201).location(`${req.baseUrl}/keys/${created.key.id}`);
    res.json(withSecret(created.key, created.secret));
  });

  router.get('/keys/:id', async (req, res) => {
    res.json(await keyService.getKey(callerOf(res).actor, idOf(req)));
  });

  router.post('/keys/:id/scopes', parseJsonBody, async (req, res) => {
    const { actor, origin } = callerOf(res);
    const { scopes } = parseInput(ChangeScopesInputSchema, req.body);
    res.json(await keyService.changeScopes(actor, idOf(req), scopes, origin));
  });

  router.post('/keys/:id/rotate', parseJsonBody, async (req, res) => {
    const { actor, origin } = callerOf(res);
    const rotated = await keyService.rotateKey(actor, idOf(req), req.body, origin);
    res.json(withSecret(rotated.key, rotated.secret));
  });

  router.post('/keys/:id/close-old-secret', parseJsonBody, async (req, res) => {
    const { actor, origin } = callerOf(res);
    const { secretId } = parseInput(CloseSecretInputSchema, req.body);
    res.json(await keyService.closeSecret(actor, idOf(req), secretId, origin));
  });

  router.delete('/keys/:id', async (req, res) => {
    const { actor, origin } = callerOf(res);
    res.json(await keyService.revokeKey(actor, idOf(req), origin));
  });

  router.get('/keys/:id/usage', async (req, res) => {
    const query = queryOf(UsageQuerySchema, req);
    const range = { from: msOf(query.from), to: msOf(query.to) };
    res.json(await keyService.getUsage(callerOf(res).actor, idOf(req), range));
  });

  router.get('/keys/:id/usage/series', async (req, res) => {
    const query = queryOf(UsageSeriesQuerySchema, req);
    const range = { from: msOf(query.from), to: msOf(query.to), stepMinutes: query.stepMinutes };
    res.json(await keyService.getUsageSeries(callerOf(res).actor, idOf(req), range));
  });

  router.get('/keys/:id/logs', async (req, res) => {
    const query = queryOf(LogsQuerySchema, req);
    res.json(await keyService.getLogs(callerOf(res).actor, idOf(req), query));
  });

  router.get('/keys/:id/activity', async (req, res) => {
    const query = queryOf(ActivityQuerySchema, req);
    res.json(await keyService.getActivity(callerOf(res).actor, idOf(req), query));
  });

  router.get('/activity', async (req, res) => {
    res.json(await keyService.listActivity(queryOf(GlobalActivityQuerySchema, req)));
  });
}
