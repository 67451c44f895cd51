import { DEFAULT_ASSERTION_TTL_SECONDS, type Identity, type IdentitySigner } from '@keygate/identity';
import type { SyncIdentitySigner } from './identity-signer.ts';

/** Gets a signed assertion, or the error that lost it (the assertion is then ''). */
export type AssertionCallback = (error: Error | null, assertion: string) => void;

/** The signing the cache needs: inline, or in the signing worker (see identity-signer.ts). */
export interface AssertionSigning {
  /** Absent for a signer that only signs asynchronously: every signature then goes through `signOffThread`. */
  signNow?(identity: Identity, audience: string): string;
  signOffThread(identity: Identity, audience: string, done: AssertionCallback): void;
  /** Lifetime of an assertion (`exp` − `iat`), in seconds. */
  readonly ttlSeconds: number;
  /** The clock the signer takes `iat` from (epoch ms). */
  readonly now: () => number;
}

/** The caller an assertion is made for: a key, one of its secrets, and the key's version. */
export interface AssertionSubject {
  key: { id: string; environment: Identity['environment']; scopes: string[]; version: number };
  secret: { id: string };
}

/**
 * Key-bound identity assertions (KEYGATE_IDENTITY_BINDING=key): one per (key, secret, key version,
 * environment, audience), reused across that caller's requests.
 *
 * - An assertion is handed out only while at least half its life is left, so an upstream always gets
 *   one with time to spare for its own clock and queue.
 * - From 40 % of its life on, the next request that uses it also starts its successor in the signing
 *   worker, off that request's path; a busy key thus never waits for a signature.
 * - Another key version (revoke, closed secret, scope change) is another tuple: its first request
 *   gets a new assertion at once; the old one is never handed out again.
 * - Each tuple has at most one signature under way: requests that find none usable wait for it.
 */
export interface AssertionCache {
  /**
   * A usable cached assertion for `subject` at `audience`, or null (then call `sign`). Starts the
   * renewal ahead of time when it is due.
   */
  peek(subject: AssertionSubject, audience: string): string | null;
  /**
   * Gets an assertion for `subject` at `audience`: the one being signed for the tuple if any, else a
   * new one, signed inline (called back before `sign` returns) unless `busy` (other requests in
   * flight), then in the signing worker.
   */
  sign(subject: AssertionSubject, audience: string, busy: boolean, done: AssertionCallback): void;
  /** Tuples cached (for tests and metrics). */
  readonly size: number;
}

/** One tuple's assertion and the signature under way for it. */
interface Entry {
  assertion: string | null;
  /** The scopes it asserts (the bench's fixed callers share a key id and version across scopes). */
  scopes: string[];
  /** From this time (epoch ms) on, a request that uses it starts its successor. */
  renewFrom: number;
  /** From this time on it is not handed out: less than half its life is left. */
  staleFrom: number;
  /** Callbacks waiting for the signature under way; null when none is. */
  waiting: AssertionCallback[] | null;
}

/** Share of an assertion's life after which its successor is signed ahead. */
const RENEW_AHEAD_AT = 0.4;
/** Share of an assertion's life after which it is no longer handed out. */
const STALE_AT = 0.5;

function sameScopes(a: readonly string[], b: readonly string[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function identityOf(subject: AssertionSubject): Identity {
  const { key, secret } = subject;
  return { keyId: key.id, environment: key.environment, scopes: key.scopes, secretId: secret.id };
}

/**
 * An assertion cache over `signing`, holding at most `maxEntries` tuples: beyond it the one signed
 * longest ago is dropped (a caller still calling has been signed again within 40 % of a lifetime, so
 * a hit needs no reordering).
 */
export function createAssertionCache(signing: AssertionSigning, maxEntries: number): AssertionCache {
  const entries = new Map<string, Entry>();
  const { now, ttlSeconds } = signing;

  const tupleOf = (subject: AssertionSubject, audience: string) =>
    `${subject.key.id}\n${subject.secret.id}\n${subject.key.version}\n${subject.key.environment}\n${audience}`;

  function remember(tuple: string, entry: Entry) {
    entries.delete(tuple);
    entries.set(tuple, entry);
    for (const oldest of entries.keys()) {
      if (entries.size <= maxEntries) break;
      entries.delete(oldest);
    }
  }

  /**
   * Starts the tuple's signature, `first` its first waiter (none for a renewal ahead); `inline` signs
   * before returning. Every waiter is answered once.
   */
  function start(
    tuple: string,
    entry: Entry,
    subject: AssertionSubject,
    audience: string,
    inline: boolean,
    first?: AssertionCallback,
  ) {
    entry.waiting = first ? [first] : [];
    // The signer takes `iat` from the same clock when the signing input is made, which is now.
    const iat = Math.floor(now() / 1000) * 1000;
    const finish: AssertionCallback = (error, assertion) => {
      const waiting = entry.waiting ?? [];
      entry.waiting = null;
      if (!error) {
        entry.assertion = assertion;
        entry.renewFrom = iat + ttlSeconds * 1000 * RENEW_AHEAD_AT;
        entry.staleFrom = iat + ttlSeconds * 1000 * STALE_AT;
        // Only an entry still cached is refreshed (an evicted one stays evicted).
        if (entries.get(tuple) === entry) remember(tuple, entry);
      }
      for (const done of waiting) done(error, assertion);
    };
    const identity = identityOf(subject);
    if (!inline || !signing.signNow) return signing.signOffThread(identity, audience, finish);
    let assertion: string;
    try {
      assertion = signing.signNow(identity, audience);
    } catch (error) {
      return finish(error as Error, '');
    }
    finish(null, assertion);
  }

  return {
    peek(subject, audience) {
      const tuple = tupleOf(subject, audience);
      const entry = entries.get(tuple);
      if (!entry?.assertion || !sameScopes(entry.scopes, subject.key.scopes)) return null;
      const at = now();
      if (at >= entry.staleFrom) return null;
      if (at >= entry.renewFrom && entry.waiting === null) start(tuple, entry, subject, audience, false);
      return entry.assertion;
    },
    sign(subject, audience, busy, done) {
      const tuple = tupleOf(subject, audience);
      let entry = entries.get(tuple);
      if (!entry || !sameScopes(entry.scopes, subject.key.scopes)) {
        entry = { assertion: null, scopes: subject.key.scopes, renewFrom: 0, staleFrom: 0, waiting: null };
        remember(tuple, entry);
      }
      if (entry.waiting) {
        entry.waiting.push(done);
        return;
      }
      start(tuple, entry, subject, audience, !busy, done);
    },
    get size() {
      return entries.size;
    },
  };
}

/**
 * The assertion signing of a gateway signer: itself when it signs synchronously (the gateway's own),
 * else (a jose signer, in tests) every signature through its promise, at the default lifetime.
 */
export function assertionSigningOf(signer: IdentitySigner | SyncIdentitySigner): AssertionSigning {
  if ('signOffThread' in signer) return signer;
  return {
    signOffThread: (identity, audience, done) => {
      signer.sign(identity, audience).then(
        (assertion) => done(null, assertion),
        (error: unknown) => done(error as Error, ''),
      );
    },
    ttlSeconds: DEFAULT_ASSERTION_TTL_SECONDS,
    now: Date.now,
  };
}
