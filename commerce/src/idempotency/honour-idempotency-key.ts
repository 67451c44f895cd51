import type { IncomingMessage } from 'node:http';
import {
  decideClaim,
  doneRecord,
  fingerprintRequest,
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENT_REPLAYED_HEADER,
  isKeptAnswer,
  isValidIdempotencyKey,
  pickReplayedHeaders,
  runningRecord,
  type StoredAnswer,
} from '@keygate/contracts/idempotency';
import type { NextFunction, Request, Response } from 'express';
import type { Atomically } from '../atomically.ts';
import type { CommerceDatabase } from '../db/database.ts';
import { CommerceError } from '../errors.ts';
import { callerKeyId } from '../http/params.ts';
import type { IdempotencyStore } from './idempotency-store.ts';

/** The request bodies' exact bytes, kept by the JSON parser's `verify` hook for the fingerprint. */
const rawBodies = new WeakMap<IncomingMessage, Buffer>();

/** `express.json({ verify })` hook: keeps the body's bytes for the fingerprint. */
export function keepRawBody(req: IncomingMessage, _res: unknown, body: Buffer): void {
  rawBodies.set(req, body);
}

export interface IdempotencyDeps {
  db: CommerceDatabase;
  store: IdempotencyStore;
  atomically: Atomically;
  clock: () => Date;
  /** Test hook (KEYGATE_BENCH_MODE only): true leaves the request unanswered after its commit. */
  hangAfterCommit?: (req: Request) => boolean;
}

/** POST and PATCH under /v2, but not the GraphQL query: it changes nothing, so it needs no key. */
function isHonoured(req: Request): boolean {
  return (req.method === 'POST' || req.method === 'PATCH') && req.path !== '/graphql';
}

function readKey(req: Request): string | null {
  const value = req.headers[IDEMPOTENCY_KEY_HEADER];
  if (value === undefined) return null;
  if (typeof value !== 'string' || !isValidIdempotencyKey(value)) {
    throw new CommerceError(
      'MALFORMED_IDEMPOTENCY_KEY',
      'Idempotency-Key must be 1 to 255 visible ASCII characters (no spaces), e.g. a UUID.',
    );
  }
  return value;
}

function replay(res: Response, answer: StoredAnswer): void {
  res.status(answer.status);
  for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
  res.setHeader(IDEMPOTENT_REPLAYED_HEADER, 'true');
  res.end(answer.body);
}

function bodyText(chunk: unknown, encoding: unknown): string {
  if (chunk === undefined || chunk === null || typeof chunk === 'function') return '';
  if (Buffer.isBuffer(chunk)) return chunk.toString('utf8');
  if (chunk instanceof Uint8Array) return Buffer.from(chunk).toString('utf8');
  return Buffer.from(
    String(chunk),
    typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8',
  ).toString('utf8');
}

/**
 * Honours `Idempotency-Key` on POST and PATCH (see @keygate/contracts/idempotency for the rules).
 * Mounted after identity verification and the JSON parser: a request refused before this (no
 * valid identity, a body that is not JSON) ran nothing and is refused the same again, so it
 * leaves no record.
 *
 * Atomicity: the claim (a lease) is its own small transaction. Then the rest of the request runs
 * inside one `BEGIN IMMEDIATE` this middleware opens; every handler's own transaction becomes a
 * savepoint in it. Commerce's handlers answer synchronously, so the answer is written as a record
 * and committed together with the effect, before a byte is sent: a crash can lose the answer but
 * never keep an effect without it. A 5xx rolls the effect back and drops the lease, so its retry
 * runs again. A handler that awaits before answering (the webhook endpoint URL check) makes the
 * transaction commit as soon as the synchronous part returns, and its record follows in its own
 * transaction when it answers.
 */
export function honourIdempotencyKey(deps: IdempotencyDeps) {
  const { db, store, atomically, clock } = deps;

  function finish(
    keyId: string,
    key: string,
    fingerprint: string,
    status: number,
    answer: StoredAnswer,
  ): void {
    if (isKeptAnswer(status)) store.write(keyId, key, doneRecord(fingerprint, answer, clock().getTime()));
    else store.remove(keyId, key);
  }

  /** Ends the transaction this middleware opened: a 5xx undoes the effect, anything else commits it with its record. */
  function settleOpen(status: number, writeRecord: () => void): void {
    try {
      if (status >= 500) {
        db.sqlite.exec('ROLLBACK');
        return;
      }
      writeRecord();
      db.sqlite.exec('COMMIT');
    } catch (error) {
      if (db.sqlite.inTransaction) db.sqlite.exec('ROLLBACK');
      throw error;
    }
  }

  return function honourKey(req: Request, res: Response, next: NextFunction): void {
    if (!isHonoured(req)) return next();
    const key = readKey(req);
    if (key === null) return next();
    const keyId = callerKeyId(req);
    const fingerprint = fingerprintRequest(req.method, req.originalUrl, rawBodies.get(req) ?? '');
    const now = clock().getTime();
    const decision = atomically(() => {
      const decided = decideClaim(store.read(keyId, key), fingerprint, now);
      if (decided.kind === 'run') store.write(keyId, key, runningRecord(fingerprint, now));
      return decided;
    });
    if (decision.kind === 'replay') return replay(res, decision.answer);
    if (decision.kind === 'reused') {
      throw new CommerceError(
        'IDEMPOTENCY_KEY_REUSED',
        'This Idempotency-Key was used for another request (method, path or body differ); use a new key for a new request.',
      );
    }
    if (decision.kind === 'in-flight') {
      res.setHeader('Retry-After', String(decision.retryAfterSeconds));
      throw new CommerceError(
        'IDEMPOTENCY_KEY_IN_USE',
        'A request with this Idempotency-Key is still running; retry after Retry-After seconds.',
        { retryAfter: decision.retryAfterSeconds },
      );
    }

    let isOpen = false;
    const end = res.end;
    res.end = function endOnce(this: Response, chunk?: unknown, encoding?: unknown, callback?: unknown) {
      res.end = end;
      const status = res.statusCode;
      const answer = {
        status,
        headers: pickReplayedHeaders(res.getHeaders()),
        body: bodyText(chunk, encoding),
      };
      if (isOpen) {
        isOpen = false;
        settleOpen(status, () => finish(keyId, key, fingerprint, status, answer));
        if (status >= 500) atomically(() => store.remove(keyId, key));
      } else {
        atomically(() => finish(keyId, key, fingerprint, status, answer));
      }
      if (deps.hangAfterCommit?.(req)) return res;
      return (end as (...args: unknown[]) => Response).call(this, chunk, encoding, callback);
    } as Response['end'];

    db.sqlite.exec('BEGIN IMMEDIATE');
    isOpen = true;
    try {
      next();
    } finally {
      if (isOpen) {
        isOpen = false;
        db.sqlite.exec('COMMIT');
      }
    }
  };
}
