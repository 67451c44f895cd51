import { createHash } from 'node:crypto';
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
import type { AnswerRecorder } from '../keys/service-context.ts';
import type { IdempotencySettle } from '../model/model.ts';
import type { IdempotencyMethods } from '../store/store.ts';
import { rawBodyOf } from './json-body.ts';

export interface IdempotencyStepDeps {
  store: IdempotencyMethods;
  clock: () => number;
  logger: Logger;
}

const malformedKey = (detail: string) => new GatewayError('MALFORMED_IDEMPOTENCY_KEY', detail);

/** An answer as a route renders a result: JSON `body`, with a Location for a created resource. */
export interface RenderedAnswer {
  status: number;
  location?: string;
  body: unknown;
}

/** A claimed request: its lease, and the answer a change committed with its record, once one did. */
interface HeldClaim {
  claim: Claim;
  key: string;
  fingerprint: string;
  clock: () => number;
  /** The answer of each record built for a commit (a retried commit builds another). */
  built: Map<IdempotencySettle, StoredAnswer>;
  committed?: StoredAnswer;
}

const held = new WeakMap<Response, HeldClaim>();

/**
 * The recorder through which a change commits this request's Idempotency-Key record with itself
 * (KeyChange.idempotency), rendering its result as `render` says the route answers; undefined for
 * a request that holds no claim (no Idempotency-Key, or an API that does not honour it).
 */
export function answerRecorderOf<R>(
  res: Response,
  render: (result: R) => RenderedAnswer,
): AnswerRecorder<R> | undefined {
  const claimed = held.get(res);
  if (!claimed) return undefined;
  return {
    recordOf(result) {
      const { status, location, body } = render(result);
      const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
      if (location !== undefined) headers.location = location;
      const plain: StoredAnswer = { status, headers, body: JSON.stringify(body) };
      const now = claimed.clock();
      const sealed = { ...plain, body: sealAnswerBody(plain.body, claimed.key, claimed.claim.keyId) };
      const settle: IdempotencySettle = {
        keyId: claimed.claim.keyId,
        keyHash: claimed.claim.keyHash,
        expected: claimed.claim.running,
        next: doneRecord(claimed.fingerprint, sealed, now),
        nowMs: now,
      };
      claimed.built.set(settle, plain);
      return settle;
    },
    committed(settle) {
      claimed.committed = claimed.built.get(settle);
    },
  };
}

/**
 * The id of the operation a claimed request asks for: its caller's key, its Idempotency-Key and its
 * fingerprint, hashed (the Idempotency-Key itself is a secret of the caller's). A ledger remembers a
 * credits change by it (BudgetLedger.changeCredits). Undefined without a claim.
 */
export function operationIdOf(res: Response): string | undefined {
  const claimed = held.get(res);
  if (!claimed) return undefined;
  return createHash('sha256')
    .update(`${claimed.claim.keyId}\n${claimed.claim.keyHash}\n${claimed.fingerprint}`)
    .digest('base64url');
}

function bodyText(chunk: unknown): string {
  if (chunk === undefined || chunk === null || typeof chunk === 'function') return '';
  return Buffer.isBuffer(chunk) ? chunk.toString('utf8') : String(chunk);
}

/**
 * Honours `Idempotency-Key` on a key-management POST (see @keygate/contracts/idempotency for the
 * rules), after the key pipeline and the JSON body parser: a request refused before (401, 403,
 * 429, a body that is not JSON) ran nothing and leaves no record. The record sits in the key store
 * under the caller's key id and a hash of the idempotency key, its body sealed (seal-answer.ts).
 *
 * A request that changes something commits its answer's record in the change's own transaction
 * (SQLite) or script (Redis): the route hands the key service a recorder (answerRecorderOf), the
 * service builds the record from the result before the commit, and the store writes both or
 * neither, so a crash after the change cannot let a retry run it again. This step then sends that
 * answer as recorded and writes nothing more. Any other answer (an error, a change that had nothing
 * to do, a credits change: its balance after is decided inside the ledger's own write) is recorded
 * here before it is sent, as the end of the lease, so a retry that follows it replays. A crash
 * before the commit leaves only the lease, which lapses after a minute. A credits change is
 * remembered by the ledger under operationIdOf, in the balance's own write: a retry after a crash
 * between that write and the record changes nothing and answers the balance the first left.
 */
export function createIdempotencyStep(deps: IdempotencyStepDeps): RequestHandler {
  const { store, clock, logger } = deps;

  function replay(res: Response, answer: StoredAnswer, key: string, keyId: string): void {
    res.status(answer.status);
    for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
    res.setHeader(IDEMPOTENT_REPLAYED_HEADER, 'true');
    res.end(openAnswerBody(answer.body, key, keyId));
  }

  function keepAnswer(res: Response, claimed: HeldClaim): void {
    const { claim, key, fingerprint } = claimed;
    const end = res.end;
    res.end = function endAfterRecord(this: Response, chunk?: unknown, ...rest: unknown[]) {
      res.end = end;
      const send = (...args: unknown[]) => (end as (...args: unknown[]) => Response).call(this, ...args);
      const committed = claimed.committed;
      if (committed) {
        // The store holds this answer already: send exactly it, so the first answer and a replay agree.
        res.statusCode = committed.status;
        for (const [name, value] of Object.entries(committed.headers)) res.setHeader(name, value);
        res.setHeader('content-length', Buffer.byteLength(committed.body));
        send(committed.body, 'utf8');
        return res;
      }
      const status = res.statusCode;
      const now = clock();
      const answer: StoredAnswer = {
        status,
        headers: pickReplayedHeaders(res.getHeaders()),
        body: sealAnswerBody(bodyText(chunk), key, claim.keyId),
      };
      const done = isKeptAnswer(status) ? doneRecord(fingerprint, answer, now) : null;
      settleIdempotencyKey(store, claim, done, now).then(
        () => send(chunk, ...rest),
        (error: unknown) => {
          // The lease stays until it lapses; then a retry runs again (a credits change, remembered
          // by its ledger, answers the balance it left).
          logger.error({ err: error }, 'idempotency record not written');
          send(chunk, ...rest);
        },
      );
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
    if (decision.claim) {
      const claimed: HeldClaim = { claim: decision.claim, key, fingerprint, clock, built: new Map() };
      held.set(res, claimed);
      keepAnswer(res, claimed);
    }
    next();
  };
}
