import type { Request, RequestHandler, Response, Router } from 'express';
import type { z } from 'zod';
import { ChangeScopesInputSchema, CloseSecretInputSchema, parseInput } from '../keys/key-input.ts';
import type { CreatedKey, KeyService } from '../keys/key-service.ts';
import { type PublicKey, withSecret } from '../keys/public-key.ts';
import type { Actor } from '../model/model.ts';
import type { KeyFilter } from '../store/store.ts';
import { answerRecorderOf } from './idempotency.ts';
import { parseJsonBody } from './json-body.ts';
import { ActivityQuerySchema, LogsQuerySchema, UsageQuerySchema } from './query-schemas.ts';

/** Who makes a change (the actor) and from where (its client IP, recorded in the activity log). */
export interface Caller {
  actor: Actor;
  origin: { sourceIp: string };
}

/** Where each handler is mounted; every path but `collection` holds `:id`. */
export interface KeyHandlerPaths {
  /** List (GET) and create (POST), e.g. `/` or `/keys`. */
  collection: string;
  /** Read (GET) and revoke (DELETE); `/scopes`, `/usage`, `/logs` and `/activity` hang below it. */
  item: string;
  /** Rotate (POST), e.g. `/:id\\:rotate` or `/keys/:id/rotate`. */
  rotate: string;
  /** Close the old secret of a rotation (POST). */
  closeOldSecret: string;
}

/** What the shared key handlers need from the API that mounts them. */
export interface KeyHandlerDeps {
  keyService: KeyService;
  /** The caller of a request that passed the API's own authentication. */
  callerOf(res: Response): Caller;
  paths: KeyHandlerPaths;
  /** The list query (`status`, and for the admin API `environment`). */
  listQuerySchema: z.ZodType<KeyFilter>;
  /** Honours Idempotency-Key on the POSTs and the PATCH, after their body is parsed (the API-key API only). */
  idempotency?: RequestHandler;
}

/** The request's query, parsed by `schema` (422 VALIDATION_FAILED otherwise). */
export function queryOf<S extends z.ZodType>(schema: S, req: Request): z.infer<S> {
  return parseInput(schema, req.query);
}

/** The recorder of a 200 answer with a key (see answerRecorderOf). */
const keyAnswer = (res: Response) => answerRecorderOf(res, (key: PublicKey) => ({ status: 200, body: key }));

/** The `:id` path parameter. */
export const idOf = (req: Request): string => String(req.params.id);

/** An optional ISO instant as epoch ms. */
export const msOf = (iso: string | undefined): number | undefined =>
  iso === undefined ? undefined : Date.parse(iso);

/**
 * The key routes both key APIs share (`/v2/auth/keys` for an `auth:rw` key, `/admin/api/keys` for
 * an administrator): create (201 + Location, the only time the secret is shown), list, read,
 * scopes, budget (PATCH), rotate, close the old secret, revoke, usage, logs and activity. Only the actor, the
 * paths and the list filter differ; the key service applies the actor's rules.
 */
export function addKeyHandlers(router: Router, deps: KeyHandlerDeps): void {
  const { keyService, callerOf, paths } = deps;
  const below = (suffix: string) => `${paths.item}/${suffix}`;
  const bodySteps: RequestHandler[] = deps.idempotency ? [parseJsonBody, deps.idempotency] : [parseJsonBody];

  router.post(paths.collection, ...bodySteps, async (req, res) => {
    const { actor, origin } = callerOf(res);
    const locationOf = (id: string) => `${req.baseUrl}${paths.item.replace(':id', id)}`;
    const answer = answerRecorderOf(res, (created: CreatedKey) => ({
      status: 201,
      location: locationOf(created.key.id),
      body: withSecret(created.key, created.secret),
    }));
    const created = await keyService.createKey(actor, req.body, { ...origin, answer });
    res.status(201).location(locationOf(created.key.id));
    res.json(withSecret(created.key, created.secret));
  });

  router.get(paths.collection, async (req, res) => {
    const query = queryOf(deps.listQuerySchema, req);
    res.json({ items: await keyService.listKeys(callerOf(res).actor, query) });
  });

  router.post(paths.rotate, ...bodySteps, async (req, res) => {
    const { actor, origin } = callerOf(res);
    const answer = answerRecorderOf(res, (rotated: CreatedKey) => ({
      status: 200,
      body: withSecret(rotated.key, rotated.secret),
    }));
    const rotated = await keyService.rotateKey(actor, idOf(req), req.body, { ...origin, answer });
    res.json(withSecret(rotated.key, rotated.secret));
  });

  router.post(paths.closeOldSecret, ...bodySteps, async (req, res) => {
    const { actor, origin } = callerOf(res);
    const { secretId } = parseInput(CloseSecretInputSchema, req.body);
    res.json(await keyService.closeSecret(actor, idOf(req), secretId, { ...origin, answer: keyAnswer(res) }));
  });

  router.get(paths.item, async (req, res) => {
    res.json(await keyService.getKey(callerOf(res).actor, idOf(req)));
  });

  router.post(below('scopes'), ...bodySteps, async (req, res) => {
    const { actor, origin } = callerOf(res);
    const { scopes } = parseInput(ChangeScopesInputSchema, req.body);
    res.json(await keyService.changeScopes(actor, idOf(req), scopes, { ...origin, answer: keyAnswer(res) }));
  });

  router.patch(paths.item, ...bodySteps, async (req, res) => {
    const { actor, origin } = callerOf(res);
    res.json(
      await keyService.changeBudget(actor, idOf(req), req.body, { ...origin, answer: keyAnswer(res) }),
    );
  });

  router.delete(paths.item, async (req, res) => {
    const { actor, origin } = callerOf(res);
    res.json(await keyService.revokeKey(actor, idOf(req), origin));
  });

  router.get(below('usage'), async (req, res) => {
    const query = queryOf(UsageQuerySchema, req);
    const range = { from: msOf(query.from), to: msOf(query.to) };
    res.json(await keyService.getUsage(callerOf(res).actor, idOf(req), range));
  });

  router.get(below('activity'), async (req, res) => {
    const query = queryOf(ActivityQuerySchema, req);
    res.json(await keyService.getActivity(callerOf(res).actor, idOf(req), query));
  });

  router.get(below('logs'), async (req, res) => {
    const query = queryOf(LogsQuerySchema, req);
    res.json(await keyService.getLogs(callerOf(res).actor, idOf(req), query));
  });
}
