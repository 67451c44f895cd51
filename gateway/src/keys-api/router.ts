import { type NextFunction, type Request, type Response, Router } from 'express';
import type { z } from 'zod';
import { principalOf } from '../auth/principal.ts';
import { routeOf } from '../auth/steps.ts';
import { ChangeScopesInputSchema, CloseSecretInputSchema, parseInput } from '../keys/key-input.ts';
import type { KeyService } from '../keys/key-service.ts';
import type { Actor } from '../keys/model.ts';
import { withSecret } from '../keys/public-key.ts';
import { parseJsonBody } from './json-body.ts';
import {
  ActivityQuerySchema,
  ListKeysQuerySchema,
  LogsQuerySchema,
  UsageQuerySchema,
} from './query-schemas.ts';

export interface KeysRouterDeps {
  keyService: KeyService;
}

/** The calling key as the actor, and its client IP as the change's source. */
function callerOf(res: Response): { actor: Actor; origin: { sourceIp: string } } {
  const principal = principalOf(res);
  return { actor: { type: 'key', id: principal.key.id }, origin: { sourceIp: principal.clientIp } };
}

function queryOf<S extends z.ZodType>(schema: S, req: Request): z.infer<S> {
  return parseInput(schema, req.query);
}

/**
 * Defence in depth: the pipeline required `auth:rw` only if the route matcher classified the path
 * as the management route. A request Express mounted here that the matcher classified otherwise
 * (a case or encoding difference between the two) is refused, never served.
 */
function requireManagementRoute(_req: Request, res: Response, next: NextFunction): void {
  if (routeOf(res)?.kind !== 'management') {
    throw new Error('keys router reached by a request the route table did not resolve to /v2/auth/keys');
  }
  next();
}

/** The `:id` path parameter. */
const idOf = (req: Request): string => String(req.params.id);

const msOf = (iso: string | undefined) => (iso === undefined ? undefined : Date.parse(iso));

/**
 * The key-management API, mounted by the data plane at `/v2/auth/keys` AFTER authentication
 * (every route requires `auth:rw`, enforced there). The caller is `principalOf(res)`; changes are
 * attributed to its key and client IP. Errors are thrown as GatewayErrors for the app's handler.
 *
 * - `POST /` create → 201 `{id, prefix, secret, …key}` + Location (the only time the token is shown)
 * - `GET /?status=` the caller's environment only → `{items: [key]}`
 * - `GET /:id` → key
 * - `POST /:id/scopes` `{scopes}` → key
 * - `DELETE /:id` revoke → 200 with the revoked key (its final state, for the caller's records)
 * - `POST /:id:rotate` `{overlapDays?}` → 200 `{id, prefix, secret, …key}` (the new token)
 * - `POST /:id:close-old-secret` `{secretId?}` → key (closes the old secret of a rotation now)
 * - `GET /:id/usage?from&to` → totals and per-secret usage (default last 24 h, at most 31 days)
 * - `GET /:id/activity?action&from&to&limit&cursor` → `{items, nextCursor}`
 * - `GET /:id/logs?secretId&from&to&limit&cursor` → `{items, nextCursor}`
 * Every response carries `Cache-Control: no-store`. Paths match case-sensitively, like the route
 * matcher, and a request whose matched route (`routeOf(res)`) is not the management route is
 * refused with 500 (a wiring bug, logged).
 */
export function createKeysRouter({ keyService }: KeysRouterDeps): Router {
  const router = Router({ caseSensitive: true, strict: false });
  router.use(requireManagementRoute);
  router.use((_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  });

  router.post('/', parseJsonBody, async (req, res) => {
    const { actor, origin } = callerOf(res);
    const created = await keyService.createKey(actor, req.body, origin);
    res.status(201).location(`${req.baseUrl}/${created.key.id}`);
    res.json(withSecret(created.key, created.secret));
  });

  router.get('/', async (req, res) => {
    const { actor } = callerOf(res);
    const query = queryOf(ListKeysQuerySchema, req);
    res.json({ items: await keyService.listKeys(actor, query) });
  });

  router.post('/:id\\:rotate', parseJsonBody, async (req, res) => {
    const { actor, origin } = callerOf(res);
    const rotated = await keyService.rotateKey(actor, idOf(req), req.body, origin);
    res.json(withSecret(rotated.key, rotated.secret));
  });

  router.post('/:id\\:close-old-secret', parseJsonBody, async (req, res) => {
    const { actor, origin } = callerOf(res);
    const { secretId } = parseInput(CloseSecretInputSchema, req.body);
    res.json(await keyService.closeSecret(actor, idOf(req), secretId, origin));
  });

  router.get('/:id', async (req, res) => {
    res.json(await keyService.getKey(callerOf(res).actor, idOf(req)));
  });

  router.post('/:id/scopes', parseJsonBody, async (req, res) => {
    const { actor, origin } = callerOf(res);
    const { scopes } = parseInput(ChangeScopesInputSchema, req.body);
    res.json(await keyService.changeScopes(actor, idOf(req), scopes, origin));
  });

  router.delete('/:id', async (req, res) => {
    const { actor, origin } = callerOf(res);
    res.json(await keyService.revokeKey(actor, idOf(req), origin));
  });

  router.get('/:id/usage', async (req, res) => {
    const query = queryOf(UsageQuerySchema, req);
    const range = { from: msOf(query.from), to: msOf(query.to) };
    res.json(await keyService.getUsage(callerOf(res).actor, idOf(req), range));
  });

  router.get('/:id/activity', async (req, res) => {
    const query = queryOf(ActivityQuerySchema, req);
    res.json(await keyService.getActivity(callerOf(res).actor, idOf(req), query));
  });

  router.get('/:id/logs', async (req, res) => {
    const query = queryOf(LogsQuerySchema, req);
    res.json(await keyService.getLogs(callerOf(res).actor, idOf(req), query));
  });

  return router;
}
