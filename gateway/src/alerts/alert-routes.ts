import {
  type AlertEndpointView,
  CreateAlertEndpointSchema,
  ListAlertDeliveriesQuerySchema,
  RotateAlertSecretSchema,
  UpdateAlertEndpointSchema,
} from '@keygate/contracts/gateway';
import { type NextFunction, type Request, type RequestHandler, type Response, Router } from 'express';
import { principalOf } from '../auth/principal.ts';
import { routeOf } from '../auth/steps.ts';
import { GatewayError } from '../errors.ts';
import { parseInput } from '../keys/key-input.ts';
import { parseJsonBody } from '../keys-api/json-body.ts';
import type { AlertDeliveryRecord, AlertEndpointRecord } from '../model/alert-store.ts';
import type { AlertService } from './alert-service.ts';

/** Where the alert routes live; the route matcher classifies both as management routes (`auth:rw`). */
export const ALERT_ENDPOINTS_PATH = '/v2/auth/alert-endpoints';
export const ALERT_DELIVERIES_PATH = '/v2/auth/alert-deliveries';

/** The JSON shape of an endpoint; secrets are never part of it. */
export function presentAlertEndpoint(endpoint: AlertEndpointRecord): AlertEndpointView {
  return {
    id: endpoint.id,
    url: endpoint.url,
    description: endpoint.description,
    eventTypes: endpoint.eventTypes as AlertEndpointView['eventTypes'],
    identityIds: endpoint.identityIds,
    enabled: endpoint.enabled,
    disabledReason: endpoint.disabledReason,
    previousSecretExpiresAt: endpoint.previousSecretExpiresAt,
    failingSince: endpoint.failingSince,
    createdAt: endpoint.createdAt,
    updatedAt: endpoint.updatedAt,
  };
}

/** The JSON shape of a delivery (its `id` is the `webhook-id` header). */
function presentDelivery(delivery: AlertDeliveryRecord) {
  const { seq: _seq, ...rest } = delivery;
  return { ...rest, nextAttemptAt: delivery.status === 'pending' ? delivery.nextAttemptAt : null };
}

function encodeCursor(seq: number): string {
  return Buffer.from(JSON.stringify({ before: seq }), 'utf8').toString('base64url');
}

function decodeCursor(cursor: string): number {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    const before = (value as { before?: unknown } | null)?.before;
    if (Number.isSafeInteger(before)) return before as number;
  } catch {
    // answered below
  }
  throw new GatewayError(
    'VALIDATION_FAILED',
    'The cursor is not valid; use the nextCursor of a previous page.',
    {
      errors: [{ detail: 'not a cursor of this list', pointer: '/cursor' }],
    },
  );
}

/** Defence in depth, as the keys router: only requests the route matcher classified as management. */
function requireManagementRoute(_req: Request, res: Response, next: NextFunction): void {
  if (routeOf(res)?.kind !== 'management') {
    throw new Error(
      'alert router reached by a request the route table did not resolve to a management route',
    );
  }
  next();
}

const idOf = (req: Request) => String(req.params.id);

/**
 * The alert endpoints API, mounted at `/v2/auth` after the key pipeline (which requires `auth:rw`):
 * - `POST /alert-endpoints` `{url, description?, eventTypes?, identityIds?, enabled?}` → 201 with `secret` (once)
 * - `GET /alert-endpoints`, `GET|PATCH|DELETE /alert-endpoints/{id}`
 * - `POST /alert-endpoints/{id}:rotate-secret` `{overlapHours?}` → with the new `secret`
 * - `POST /alert-endpoints/{id}:test` → 202 the test delivery
 * - `GET /alert-endpoints/{id}/deliveries?limit&cursor` → `{data, nextCursor}`
 * - `POST /alert-deliveries/{id}:resend` → 202 the delivery, pending again (same webhook-id)
 * - `GET /alert-events:stream` → the caller's environment's alerts as server-sent events (alert-stream.ts)
 * POST and PATCH honour `Idempotency-Key`.
 */
export function createAlertRouter(deps: {
  alerts: AlertService;
  /** Serves `GET /alert-events:stream` (alert-stream.ts). */
  stream?: RequestHandler;
  idempotency?: RequestHandler;
}): Router {
  const { alerts } = deps;
  const router = Router({ caseSensitive: true, strict: false });
  const body: RequestHandler[] = deps.idempotency ? [parseJsonBody, deps.idempotency] : [parseJsonBody];
  const base = '/alert-endpoints';
  router.use(
    [base, '/alert-deliveries', '/alert-events\\:stream'],
    requireManagementRoute,
    (_req, res, next) => {
      res.set('Cache-Control', 'no-store');
      next();
    },
  );

  if (deps.stream) router.get('/alert-events\\:stream', deps.stream);
  router.post(base, ...body, async (req, res) => {
    const input = parseInput(CreateAlertEndpointSchema, req.body);
    const created = await alerts.createEndpoint(input, principalOf(res).key.id);
    res
      .status(201)
      .location(`${ALERT_ENDPOINTS_PATH}/${created.id}`)
      .json({ ...presentAlertEndpoint(created), secret: created.secret });
  });
  router.get(base, async (_req, res) => {
    res.json({ data: (await alerts.listEndpoints()).map(presentAlertEndpoint) });
  });
  router.get(`${base}/:id`, async (req, res) => {
    res.json(presentAlertEndpoint(await alerts.getEndpoint(idOf(req))));
  });
  router.patch(`${base}/:id`, ...body, async (req, res) => {
    const changes = parseInput(UpdateAlertEndpointSchema, req.body);
    res.json(presentAlertEndpoint(await alerts.updateEndpoint(idOf(req), changes)));
  });
  router.delete(`${base}/:id`, async (req, res) => {
    await alerts.deleteEndpoint(idOf(req));
    res.status(204).end();
  });
  router.post(`${base}/:id\\:rotate-secret`, ...body, async (req, res) => {
    const raw = req.body && Object.keys(req.body as object).length > 0 ? req.body : undefined;
    const { overlapHours } = parseInput(RotateAlertSecretSchema, raw);
    const rotated = await alerts.rotateSecret(idOf(req), overlapHours);
    res.json({ ...presentAlertEndpoint(rotated), secret: rotated.secret });
  });
  router.post(`${base}/:id\\:test`, ...body, async (req, res) => {
    res.status(202).json(presentDelivery(await alerts.sendTest(idOf(req))));
  });
  router.get(`${base}/:id/deliveries`, async (req, res) => {
    const query = parseInput(ListAlertDeliveriesQuerySchema, req.query);
    const beforeSeq = query.cursor === undefined ? null : decodeCursor(query.cursor);
    const page = await alerts.listDeliveries(idOf(req), { limit: query.limit + 1, beforeSeq });
    const data = page.slice(0, query.limit);
    const last = data.at(-1);
    res.json({
      data: data.map(presentDelivery),
      nextCursor: page.length > query.limit && last ? encodeCursor(last.seq) : null,
    });
  });
  router.post('/alert-deliveries/:id\\:resend', ...body, async (req, res) => {
    res.status(202).json(presentDelivery(await alerts.resendDelivery(idOf(req))));
  });
  return router;
}
