import { requireScope } from '@keygate/identity';
import { fieldErrors } from '@keygate/problem';
import { type Request, Router } from 'express';
import { CommerceError } from '../errors.ts';
import { callerKeyId, pathParam } from '../http/params.ts';
import { parseInput } from '../http/validate.ts';
import type { EventTrigger } from '../sandbox/trigger-event.ts';
import {
  CreateEndpointSchema,
  checkEventTypes,
  EmptyBodySchema,
  ListDeliveriesQuerySchema,
  RotateSecretSchema,
  TriggerEventSchema,
  UpdateEndpointSchema,
} from './endpoint-schemas.ts';
import type { EndpointService } from './endpoint-service.ts';
import { EVENT_TYPES, isEventType, TEST_EVENT_TYPE } from './event-catalogue.ts';
import { decodeDeliveryCursor, encodeDeliveryCursor, presentDelivery, presentEndpoint } from './present.ts';

const BASE = '/v2/webhooks/endpoints';

/**
 * The webhook endpoints API (webhook:rw; webhook:r to read). Endpoints are environment-wide:
 * any key of this environment with the scope manages every endpoint.
 */
export function createEndpointRouter(endpoints: EndpointService, events: EventTrigger): Router {
  const router = Router();
  const read = requireScope('webhook:r');
  const write = requireScope('webhook:rw');
  const id = (req: Request) => pathParam(req, 'id');

  router.get('/v2/webhooks/event-types', read, (_req, res) => {
    res.json({ data: EVENT_TYPES, testEventType: TEST_EVENT_TYPE });
  });
  router.post(BASE, write, async (req, res) => {
    const body = parseInput(CreateEndpointSchema, req.body, 'body');
    const input = { ...body, eventTypes: checkEventTypes(body.eventTypes) };
    const created = await endpoints.createEndpoint(input, callerKeyId(req));
    res
      .status(201)
      .location(`${BASE}/${created.id}`)
      .json({ ...presentEndpoint(created), secret: created.secret });
  });
  router.get(BASE, read, (_req, res) => {
    res.json({ data: endpoints.listEndpoints().map(presentEndpoint) });
  });
  router.get(`${BASE}/:id`, read, (req, res) => {
    res.json(presentEndpoint(endpoints.getEndpoint(id(req))));
  });
  router.patch(`${BASE}/:id`, write, async (req, res) => {
    const body = parseInput(UpdateEndpointSchema, req.body, 'body');
    const changes =
      body.eventTypes === undefined ? body : { ...body, eventTypes: checkEventTypes(body.eventTypes) };
    res.json(presentEndpoint(await endpoints.updateEndpoint(id(req), changes)));
  });
  router.delete(`${BASE}/:id`, write, (req, res) => {
    endpoints.deleteEndpoint(id(req));
    res.status(204).end();
  });
  router.post(`${BASE}/:id\\:rotate-secret`, write, (req, res) => {
    const { overlapHours } = parseInput(RotateSecretSchema, req.body, 'body');
    const rotated = endpoints.rotateSecret(id(req), overlapHours);
    res.json({ ...presentEndpoint(rotated), secret: rotated.secret });
  });
  router.post(`${BASE}/:id\\:close-old-secret`, write, (req, res) => {
    parseInput(EmptyBodySchema, req.body, 'body');
    res.json(presentEndpoint(endpoints.closeOldSecret(id(req))));
  });
  router.post(`${BASE}/:id\\:test`, write, (req, res) => {
    parseInput(EmptyBodySchema, req.body, 'body');
    res.status(202).json(presentDelivery(endpoints.sendTestEvent(id(req))));
  });
  router.get(`${BASE}/:id/deliveries`, read, (req, res) => {
    const query = parseInput(ListDeliveriesQuerySchema, req.query, 'query');
    const beforeSeq = query.cursor === undefined ? null : decodeDeliveryCursor(query.cursor);
    if (query.cursor !== undefined && beforeSeq === null) {
      throw new CommerceError(
        'INVALID_CURSOR',
        'The cursor is not valid; use the nextCursor of a previous page.',
      );
    }
    const page = endpoints.listDeliveries(id(req), { limit: query.limit + 1, beforeSeq });
    const data = page.slice(0, query.limit);
    const last = data.at(-1);
    const nextCursor = page.length > query.limit && last ? encodeDeliveryCursor(last.seq) : null;
    res.json({ data: data.map(presentDelivery), nextCursor });
  });
  // The sandbox: a real change that emits an event of the type asked for (test environment only).
  router.post('/v2/webhooks/events\\:trigger', write, (req, res) => {
    const { type } = parseInput(TriggerEventSchema, req.body, 'body');
    if (!isEventType(type)) {
      throw new CommerceError(
        'UNKNOWN_EVENT_TYPE',
        `Unknown event type ${type}. See GET /v2/webhooks/event-types.`,
        {
          errors: fieldErrors([{ path: ['type'], message: `unknown event type ${type}` }]),
          eventTypes: EVENT_TYPES,
        },
      );
    }
    res.json(events.trigger(type, callerKeyId(req)));
  });
  router.post('/v2/webhooks/deliveries/:id\\:resend', write, (req, res) => {
    parseInput(EmptyBodySchema, req.body, 'body');
    res.status(202).json(presentDelivery(endpoints.resendDelivery(id(req))));
  });
  return router;
}
