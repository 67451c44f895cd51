import { failSpan, SPAN_KIND, type Tracer, traceparentOf } from '@keygate/tracing';
import type { DeliveryClaim } from './delivery-store.ts';
import type { OutgoingWebhook, SendWebhook } from './http-sender.ts';
import type { AttemptResult } from './retry-policy.ts';

/**
 * Sends one delivery attempt as a client span of a trace of its own, linked to the trace of the
 * request that wrote the event (an attempt may run hours later, after retries: a link, not a
 * child), and tells the receiver with a `traceparent` header.
 */
export function sendTraced(
  tracer: Tracer,
  send: SendWebhook,
  outgoing: OutgoingWebhook,
  claim: DeliveryClaim,
): Promise<AttemptResult> {
  const span = tracer.startLinked('POST', claim.traceparent, SPAN_KIND.client, {
    'http.request.method': 'POST',
    'server.address': outgoing.url.hostname,
    'keygate.webhook.delivery.id': claim.deliveryId,
    'keygate.webhook.endpoint.id': claim.endpointId,
    'keygate.webhook.event.type': claim.eventType,
  });
  const headers = { ...outgoing.headers, traceparent: traceparentOf(span) };
  return send({ ...outgoing, headers }).then(
    (result) => {
      if (result.statusCode !== null) span.setAttribute('http.response.status_code', result.statusCode);
      if (result.error !== null || (result.statusCode ?? 0) >= 400)
        failSpan(span, result.statusCode === null ? 'no_answer' : String(result.statusCode));
      span.end();
      return result;
    },
    (error: unknown) => {
      failSpan(span, (error as Error).name ?? 'Error');
      span.end();
      throw error;
    },
  );
}
