import {
  doneRecord,
  fingerprintRequest,
  IDEMPOTENT_REPLAYED_HEADER,
  isKeptAnswer,
  pickReplayedHeaders,
  readIdempotencyKey,
  type StoredAnswer,
} from '@keygate/contracts/idempotency';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { principalOf } from '../auth/principal.ts';
import { GatewayError } from '../errors.ts';
import { type Claim, claimIdempotencyKey, settleIdempotencyKey } from '../idempotency/claim-key.ts';
import { hashIdempotencyKey, openAnswerBody, sealAnswerBody } from '../idempotency/seal-answer.ts';
import type { IdempotencyMethods } from '../store/store.ts';
import { rawBodyOf } from './json-body.ts';

export interface IdempotencyStepDeps {
  store: IdempotencyMethods;
  clock: () => number;
  logger: Logger;
}

const malformedKey = (detail: string) => new GatewayError('MALFORMED_IDEMPOTENCY_KEY', detail);

function bodyText(chunk: unknown): string {
  if (chunk === undefined || chunk === null || typeof chunk === 'function') return '';
  return Buffer.isBuffer(chunk) ? chunk.toString('utf8') : String(chunk);
}

/**
 * Honours `Idempotency-Key` on a key-management POST (see @keygate/contracts/idempotency for the
 * rules), after the key pipeline and the JSON body parser: a request refused before (401, 403,
 * 429, a body that is not JSON) ran nothing and leaves no record. The record sits in the key store
 * under the caller's key id and a hash of the idempotency key, its body sealed (seal-answer.ts).
 * The answer is held back until its record is written, so a retry that follows it replays.
 * A crash between the change and the record leaves a lease that lapses after a minute: unlike
 * commerce, the key store cannot write both in one transaction (Redis).
 */
export function createIdempotencyStep(deps: IdempotencyStepDeps): RequestHandler {
  const { store, clock, logger } = deps;

  function replay(res: Response, answer: StoredAnswer, key: string, keyId: string): void {
    res.status(answer.status);
    for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
    res.setHeader(IDEMPOTENT_REPLAYED_HEADER, 'true');
    res.end(openAnswerBody(answer.body, key, keyId));
  }

  function keepAnswer(res: Response, claim: Claim, key: string, fingerprint: string): void {
    const end = res.end;
    res.end = function endAfterRecord(this: Response, chunk?: unknown, ...rest: unknown[]) {
      res.end = end;
      const status = res.statusCode;
      const now = clock();
      const answer: StoredAnswer = {
        status,
        headers: pickReplayedHeaders(res.getHeaders()),
        body: sealAnswerBody(bodyText(chunk), key, claim.keyId),
      };
      const done = isKeptAnswer(status) ? doneRecord(fingerprint, answer, now) : null;
      const send = () => (end as (...args: unknown[]) => Response).call(this, chunk, ...rest);
      settleIdempotencyKey(store, claim, done, now).then(send, (error: unknown) => {
        // The change is made; a retry meets the lease until it lapses, then runs again.
        logger.error({ err: error }, 'idempotency record not written');
        send();
      });
      return res;
    } as Response['end'];
  }

  return async function honourIdempotencyKey(req: Request, res: Response, next: NextFunction) {
    const key = readIdempotencyKey(req.headers, malformedKey);
    if (key === null) return next();
    const keyId = principalOf(res).key.id;
    const fingerprint = fingerprintRequest(req.method, req.originalUrl, rawBodyOf(req));
    const decision = await claimIdempotencyKey(
      store,
      { keyId, keyHash: hashIdempotencyKey(key), fingerprint },
      clock(),
    );
    if (decision.kind === 'replay') return replay(res, decision.answer, key, keyId);
    if (decision.kind === 'reused') {
      throw new GatewayError(
        'IDEMPOTENCY_KEY_REUSED',
        'This Idempotency-Key was used for another request (method, path or body differ); use a new key for a new request.',
      );
    }
    if (decision.kind === 'in-flight') {
      throw new GatewayError(
        'IDEMPOTENCY_KEY_IN_USE',
        'A request with this Idempotency-Key is still running; retry after Retry-After seconds.',
        { retryAfter: decision.retryAfterSeconds },
      );
    }
    if (decision.claim) keepAnswer(res, decision.claim, key, fingerprint);
    next();
  };
}
