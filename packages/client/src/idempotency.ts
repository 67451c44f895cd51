import type { Middleware } from 'openapi-fetch';
import { KEYED_METHODS } from './retry.ts';

/** The request header the services use to recognise a repeat of one POST or PATCH. */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/** Makes a fresh idempotency key: a random UUID (version 4). */
export type CreateIdempotencyKey = () => string;

/**
 * Gives each POST and PATCH an `Idempotency-Key` unless the caller sent its own (through
 * `headers` or `params.header`). Retries of the call reuse the prepared request, so they carry the
 * same key and the service answers them with the first result rather than acting twice.
 */
export function createIdempotencyMiddleware(
  createKey: CreateIdempotencyKey = () => crypto.randomUUID(),
): Middleware {
  return {
    onRequest({ request }) {
      if (KEYED_METHODS.has(request.method) && !request.headers.has(IDEMPOTENCY_KEY_HEADER)) {
        request.headers.set(IDEMPOTENCY_KEY_HEADER, createKey());
      }
      return request;
    },
  };
}
