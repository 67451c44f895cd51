import type { IncomingMessage } from 'node:http';
import {
  decideClaim,
  doneRecord,
  fingerprintRequest,
  IDEMPOTENT_REPLAYED_HEADER,
  isKeptAnswer,
  pickReplayedHeaders,
  readIdempotencyKey,
  runningRecord,
  type StoredAnswer,
} from '@keygate/contracts/idempotency';
import type { NextFunction, Request, Response } from 'express';
import type { Atomically } from '../atomically.ts';
import type { CommerceDatabase } from '../db/database.ts';
import { closeUnit, openUnit, type RequestUnit, runInUnit } from '../db/request-unit.ts';
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

/** Whose record a request has: the caller's key id, its idempotency key, the request's fingerprint. */
interface RecordOf {
  keyId: string;
  key: string;
  fingerprint: string;
}

/**
 * POST, PATCH and PUT under /v2, but not the GraphQL query: it changes nothing, so it needs no key.
 * A PUT is idempotent by itself; with a key, a retry also answers what the first attempt did even
 * when another change came between them, instead of writing its body over that change.
 */
function isHonoured(req: Request): boolean {
  return (req.method === 'POST' || req.method === 'PATCH' || req.method === 'PUT') && req.path !== '/graphql';
}

const malformedKey = (detail: string) => new CommerceError('MALFORMED_IDEMPOTENCY_KEY', detail);

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
 * Honours `Idempotency-Key` on POST, PATCH and PUT (see @keygate/contracts/idempotency for the rules).
 * Mounted after identity verification and the JSON parser: a request refused before this (no
 * valid identity, a body that is not JSON) ran nothing and is refused the same again, so it
 * leaves no record.
 *
 * Atomicity: the claim (a lease) is its own small transaction. Then the request runs as a unit
 * (db/request-unit.ts): one `BEGIN IMMEDIATE` this middleware opens, in which every handler's own
 * transaction becomes a savepoint, and which its answer commits together with the record, before
 * a byte is sent: a crash can lose the answer but never keep a change without it. A handler that
 * awaits before writing (the webhook endpoint URL check) commits the empty start of the unit, and
 * its first write reopens it. A 5xx rolls the changes back and drops the lease, so its retry runs
 * again.
 */
export function honourIdempotencyKey(deps: IdempotencyDeps) {
  const { db, store, atomically, clock } = deps;

  function finish({ keyId, key, fingerprint }: RecordOf, status: number, answer: StoredAnswer): void {
    if (isKeptAnswer(status)) store.write(keyId, key, doneRecord(fingerprint, answer, clock().getTime()));
    else store.remove(keyId, key);
  }

  /**
   * Ends the request: in its open unit, a 5xx undoes every write (and the lease goes), anything
   * else commits them with the record; a unit closed before writes the record alone.
   */
  function settle(unit: RequestUnit, status: number, writeRecord: () => void): void {
    if (unit.isOpen && status >= 500) closeUnit(unit, 'ROLLBACK');
    if (!unit.isOpen) return atomically(writeRecord);
    try {
      writeRecord();
    } catch (error) {
      closeUnit(unit, 'ROLLBACK');
      throw error;
    }
    closeUnit(unit, 'COMMIT');
  }

  /** Claims the key: returns when the request is to run, answers a replay, or throws the refusal. */
  function claim(res: Response, record: RecordOf): 'run' | 'answered' {
    const now = clock().getTime();
    const decision = atomically(() => {
      const decided = decideClaim(store.read(record.keyId, record.key), record.fingerprint, now);
      if (decided.kind === 'run')
        store.write(record.keyId, record.key, runningRecord(record.fingerprint, now));
      return decided;
    });
    if (decision.kind === 'run') return 'run';
    if (decision.kind === 'replay') {
      replay(res, decision.answer);
      return 'answered';
    }
    if (decision.kind === 'reused') {
      throw new CommerceError(
        'IDEMPOTENCY_KEY_REUSED',
        'This Idempotency-Key was used for another request (method, path or body differ); use a new key for a new request.',
      );
    }
    res.setHeader('Retry-After', String(decision.retryAfterSeconds));
    throw new CommerceError(
      'IDEMPOTENCY_KEY_IN_USE',
      'A request with this Idempotency-Key is still running; retry after Retry-After seconds.',
      { retryAfter: decision.retryAfterSeconds },
    );
  }

  /** Makes the answer end the unit: it is kept (or not) in the unit's transaction before it is sent. */
  function answerInUnit(req: Request, res: Response, unit: RequestUnit, record: RecordOf): void {
    const end = res.end;
    res.end = function endOnce(this: Response, chunk?: unknown, encoding?: unknown, callback?: unknown) {
      res.end = end;
      unit.isFinished = true;
      const status = res.statusCode;
      const answer = {
        status,
        headers: pickReplayedHeaders(res.getHeaders()),
        body: bodyText(chunk, encoding),
      };
      settle(unit, status, () => finish(record, status, answer));
      if (deps.hangAfterCommit?.(req)) return res;
      return (end as (...args: unknown[]) => Response).call(this, chunk, encoding, callback);
    } as Response['end'];
  }

  return function honourKey(req: Request, res: Response, next: NextFunction): void {
    if (!isHonoured(req)) return next();
    const key = readIdempotencyKey(req.headers, malformedKey);
    if (key === null) return next();
    const record = {
      keyId: callerKeyId(req),
      key,
      fingerprint: fingerprintRequest(req.method, req.originalUrl, rawBodies.get(req) ?? ''),
    };
    if (claim(res, record) === 'answered') return;
    const unit: RequestUnit = { sqlite: db.sqlite, isOpen: false, isFinished: false };
    answerInUnit(req, res, unit, record);
    openUnit(unit);
    try {
      runInUnit(unit, next);
    } finally {
      // A handler that awaits before answering: what ran so far is kept, its first write reopens the unit.
      closeUnit(unit, 'COMMIT');
    }
  };
}
