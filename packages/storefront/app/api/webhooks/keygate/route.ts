import { verifyWebhook, WebhookVerificationError } from '@keygate/webhooks';
import { revalidateTag } from 'next/cache';
import { CATALOG_TAG } from '../../../../src/lib/catalog.ts';
import { changesCatalogue } from '../../../../src/lib/catalogue-events.ts';
import { storefrontEnv } from '../../../../src/lib/env.ts';

/** The most a delivery body may hold; commerce events are a few kilobytes. */
const MAX_BODY_BYTES = 256 * 1024;

function problem(status: number, code: string, detail: string): Response {
  return Response.json(
    { type: 'about:blank', title: status === 401 ? 'Unauthorized' : 'Bad request', status, code, detail },
    { status, headers: { 'Content-Type': 'application/problem+json' } },
  );
}

/**
 * Standard Webhooks receiver: verifies the signature (packages/webhooks) against
 * KEYGATE_WEBHOOK_SECRET, then expires the cached catalogue on stock, pricing and product events
 * (CATALOGUE_EVENTS), so the next page load shows the change without a rebuild.
 */
export async function POST(request: Request): Promise<Response> {
  const secrets = storefrontEnv().KEYGATE_WEBHOOK_SECRET?.split(' ') ?? [];
  if (secrets.length === 0) {
    return problem(401, 'WEBHOOKS_NOT_CONFIGURED', 'This storefront has no KEYGATE_WEBHOOK_SECRET.');
  }
  const body = await request.text();
  if (Buffer.byteLength(body) > MAX_BODY_BYTES)
    return problem(400, 'PAYLOAD_TOO_LARGE', 'The body is too large.');
  let payload: unknown;
  try {
    payload = verifyWebhook(secrets, request.headers, body).payload;
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error;
    // A signed body that is not JSON is the sender's bug, not a forgery.
    return problem(error.code === 'INVALID_PAYLOAD' ? 400 : 401, error.code, error.message);
  }
  const type = (payload as { type?: unknown } | null)?.type;
  if (typeof type !== 'string') return problem(400, 'MALFORMED_PAYLOAD', 'The event has no type.');
  // expire: 0 rather than the stale-while-revalidate default: the next visitor must see the change.
  if (changesCatalogue(type)) revalidateTag(CATALOG_TAG, { expire: 0 });
  return new Response(null, { status: 204 });
}
