import { hash, randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { GatewayError, type RefusedKey } from '../errors.ts';
import type { SecretHasher } from '../keys/hasher.ts';
import type { ParsedToken } from '../keys/token.ts';
import type { KeyEvents } from '../model/events.ts';
import { isKeyExpired, isSecretUsable } from '../model/lifecycle.ts';
import type { ApiKey, SecretRecord } from '../model/model.ts';
import type { KeyStore } from '../store/store.ts';
import { storeUnavailableError } from '../store/unavailable-errors.ts';
import type { IpRules } from './ip-rules.ts';
import { createLruCache } from './lru-cache.ts';
import { createNegativeCache } from './negative-cache.ts';
import { createSnapshotCache, type KeySnapshot } from './snapshot-cache.ts';
import { createVerificationGuard, type VerificationRefusal } from './verification-guard.ts';

/** A lookup's row as the store gives it: the secret with its key, or null. */
type FoundSecret = Awaited<ReturnType<KeyStore['findByLookup']>>;
/** A token's secret, or null when it is refused; a promise while the store or argon2 is still at it. */
type CheckedToken = SecretRef | null | Promise<SecretRef | null>;

/** What a verified token stands for; immutable, so it may be cached for the life of the process. */
interface SecretRef {
  keyId: string;
  secretId: string;
}

export interface VerifiedKey {
  key: ApiKey;
  secret: SecretRecord;
  allowlist: IpRules;
}

/** How a per-request version read went: `stale` = Redis unreachable, served within the staleness bound. */
export type VersionCheckResult = 'current' | 'changed' | 'stale' | 'unavailable';

/** Counters the verifier reports to; all optional. */
export interface VerifierHooks {
  cacheHit?(): void;
  cacheMiss?(): void;
  verification?(ok: boolean): void;
  /** A secret verified by its keyed tag alone (no argon2). */
  tagVerified?(): void;
  /** An argon2 verification was not attempted: the lookup is throttled, or too many run at once. */
  verificationRefused?(reason: VerificationRefusal): void;
  /** One per-request version read (shared stores only). */
  versionCheck?(result: VersionCheckResult): void;
  /** Another process changed the store (SQLite's change marker moved): everything cached from it goes. */
  storeChanged?(): void;
}

export interface KeyVerifier {
  /** Verifies a well-formed token and checks the key's current state; throws a 401 GatewayError otherwise. */
  verify(token: string, parsed: ParsedToken): Promise<VerifiedKey>;
  /**
   * The same check, answered synchronously when everything it needs is in memory (the change
   * marker reads synchronously, the token was verified before, the key's snapshot is cached): the
   * state, or a thrown 401. Otherwise a promise, exactly as `verify`.
   */
  verifyNow(token: string, parsed: ParsedToken, fingerprint?: string): VerifiedKey | Promise<VerifiedKey>;
  /**
   * The token's fingerprint, which the verifier's caches are keyed by (`verifyNow` computes it when
   * not given): a caller that sees the same token again (one connection's next request) passes it back.
   */
  fingerprintOf(token: string): string;
  /** True when `confirm` reads the store (shared stores); false when it always resolves `verified` unchanged. */
  readonly confirms: boolean;
  /**
   * Shared stores only (those with `readKeyVersion`; otherwise resolves `verified` unchanged):
   * reads the key's version from the store, issuing the read synchronously so it joins the
   * rate-limit count in one round trip. Same version → `verified`. Another version → the
   * snapshot is replaced and the key's state re-checked: resolves the fresh state, or throws 401
   * if the key is now revoked, closed or expired. Store unreachable → `verified` while the
   * version was confirmed within `stalenessMs`, else 503 STORE_UNAVAILABLE.
   */
  confirm(verified: VerifiedKey): Promise<VerifiedKey>;
  /** Forgets every cached key state and remembered refusal (token verifications stay): e.g. after events may have been lost. */
  dropAll(): void;
  /** Refusals remembered now (the negative cache's entries; never above its bound). */
  readonly negativeEntries: number;
  /** Stops listening to key events. */
  close(): void;
}

export interface KeyVerifierOptions {
  store: KeyStore;
  hasher: SecretHasher;
  events: KeyEvents;
  clock: () => number;
  maxEntries: number;
  /** How long a refused token or unknown lookup is refused without a lookup (ms; default 60 s). */
  negativeTtlMs?: number;
  /** Refusals remembered at most (default 10,000). */
  negativeMaxEntries?: number;
  /** argon2 verifications running at once at most (default 2 × CPUs); beyond it 503 VERIFICATION_BUSY. */
  maxConcurrentVerifications?: number;
  /** Failed verifications per lookup and window before the lookup is throttled (default 5 per 60 s). */
  failureThrottle?: { maxFailures: number; windowMs: number };
  /** With a shared store: how long after its last confirmed version read a key works while the store is unreachable (default 10 s). */
  stalenessMs?: number;
  hooks?: VerifierHooks;
}

/** Default per-lookup failure throttle: 5 failed verifications within 60 s. */
export const DEFAULT_FAILURE_THROTTLE = Object.freeze({ maxFailures: 5, windowMs: 60_000 });

/** 401 UNKNOWN_KEY; for a wrong secret on a real key's lookup, naming that key for its analytics. */
const unknownKey = (refusedKey?: RefusedKey) => {
  const error = new GatewayError('UNKNOWN_KEY', 'No active API key matches this token.');
  if (refusedKey !== undefined) error.refusedKey = refusedKey;
  return error;
};

/** A refusal of a real key's state, naming the key (its analytics count it). */
function stateRefusal(key: ApiKey, error: GatewayError): GatewayError {
  error.refusedKey = key;
  return error;
}
const BUSY_DETAIL = 'Too many API keys are being verified right now; retry in a second.';
const verificationBusy = () => new GatewayError('VERIFICATION_BUSY', BUSY_DETAIL, { retryAfter: 1 });

async function fromStore<T>(work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (cause) {
    throw cause instanceof GatewayError ? cause : storeUnavailableError(cause);
  }
}

/** Refuses a key or secret whose current state forbids use; `nowMs` is the request's time. */
function checkState(key: ApiKey, secret: SecretRecord, nowMs: number): void {
  if (key.status === 'revoked') {
    throw stateRefusal(key, new GatewayError('KEY_REVOKED', 'This API key has been revoked.'));
  }
  if (!isSecretUsable(secret, nowMs)) {
    throw stateRefusal(
      key,
      new GatewayError('SECRET_CLOSED', 'This secret was closed; use the key’s newer secret.'),
    );
  }
  if (isKeyExpired(key, nowMs)) {
    const detail = `This API key expired at the end of ${key.expiresAt} (UTC).`;
    throw stateRefusal(key, new GatewayError('KEY_EXPIRED', detail));
  }
}

/** The key and secret of a snapshot as a verified state, or null when the snapshot lacks the secret. */
function stateOf(snapshot: KeySnapshot | null, secretId: string): VerifiedKey | null {
  const secret = snapshot?.secrets.get(secretId);
  return snapshot && secret ? { key: snapshot.key, secret, allowlist: snapshot.allowlist } : null;
}

/**
 * Token verification. A gateway's work is mostly saying no, so saying no is the cheap path, and a
 * restart must not turn a crowd of good keys into 503s. In order, per token:
 *
 * 1. Negative cache (per instance, bounded, expiring): an unknown lookup or a token refused before
 *    is refused with one hash (the fingerprint) and a map lookup. Key events forget the lookups of
 *    secrets a change wrote, on every instance, so a key created or rotated after its lookup was
 *    refused works on its first call; see negative-cache.ts for the race with a lookup in flight.
 * 2. Positive cache: a salted SHA-256 fingerprint of the token maps to `{keyId, secretId}`.
 * 3. The store's row for the lookup (concurrent first uses share one read), then its keyed tag
 *    (keys/secret-tag.ts): a tag made with this deployment's tag key that matches IS the
 *    verification, no argon2 (the secrets carry ~130 random bits, so a slow hash adds nothing a
 *    keyed HMAC does not, and argon2 per first call made cold starts and bursts fail with 503); one
 *    that does not match refuses the token at once, no argon2 and no failure counted against the
 *    lookup. Only a secret without a tag of this key (older rows, a tag made with another key) goes
 *    through argon2, once, and is then tagged.
 * 4. Key state from per-key snapshots, dropped on a key event and wholesale when the store's change
 *    marker moves or `dropAll` is called. With a shared store, `confirm` checks the snapshot
 *    against the store's version on every request.
 *
 * argon2 work (untagged secrets only) stays bounded: after `failureThrottle.maxFailures` failed
 * verifications of one lookup within the window, its tokens not already verified are refused (401
 * UNKNOWN_KEY) without argon2 until the window passes; beyond `maxConcurrentVerifications` running
 * at once, 503 VERIFICATION_BUSY (`retryAfter: 1`).
 */
export function createKeyVerifier(options: KeyVerifierOptions): KeyVerifier {
  const { store, hasher, events, clock, maxEntries, hooks = {} } = options;
  const stalenessMs = options.stalenessMs ?? 10_000;
  const throttle = options.failureThrottle ?? DEFAULT_FAILURE_THROTTLE;
  const guard = createVerificationGuard({
    maxFailuresPerLookup: throttle.maxFailures,
    failureWindowMs: throttle.windowMs,
    maxConcurrent: options.maxConcurrentVerifications ?? 2 * availableParallelism(),
    maxTrackedLookups: Math.min(maxEntries, 10_000),
  });
  // Fingerprint = SHA-256 of a per-process random salt and the token, in node:crypto's one-shot
  // `hash` (no Hmac object per request, which costs several times more): cache keys only ever
  // compared in this process's memory, never shown, and useless without the salt.
  const fingerprintSalt = randomBytes(32).toString('base64url');
  const verified = createLruCache<SecretRef>(maxEntries);
  const negatives = createNegativeCache({
    maxEntries: options.negativeMaxEntries ?? 10_000,
    ttlMs: options.negativeTtlMs ?? 60_000,
  });
  const verifying = new Map<string, Promise<SecretRef | null>>();
  const snapshots = createSnapshotCache({ store, clock, maxEntries });
  let marker: number | undefined;
  // The subscriber's current (or last) unbroken subscription, on `clock`: [subscribedAt, lostAt or now].
  let subscribedAt = clock();
  let lostAt: number | null = null;
  const unsubscribers = [
    events.subscribe((keyId, lookups) => {
      snapshots.drop(keyId);
      if (lookups) negatives.forgetLookups(lookups);
    }),
    events.onReset?.(() => {
      subscribedAt = clock();
      negatives.clear();
    }),
    events.onLost?.(() => {
      if (lostAt === null || lostAt < subscribedAt) lostAt = clock();
      negatives.clear();
    }),
  ];

  /** Whether key events reach this instance now: refusals are remembered only then. */
  function isListening(): boolean {
    return !events.onLost || lostAt === null || lostAt < subscribedAt;
  }

  /** Remembers a refused token (by fingerprint), unless events may be missed or one arrived since `since`. */
  function refuseToken(fingerprint: string, since: number): null {
    if (isListening()) negatives.rememberToken(fingerprint, clock(), since);
    return null;
  }

  /** Remembers a wrong secret on a real key's lookup, with the key, and refuses it naming the key. */
  function refuseSecret(fingerprint: string, since: number, key: ApiKey): never {
    const refused = { id: key.id, identityId: key.identityId, environment: key.environment };
    if (isListening()) negatives.rememberToken(fingerprint, clock(), since, refused);
    throw unknownKey(refused);
  }

  /**
   * Whether no invalidation can have been missed since `confirmedAt`: the subscriber was subscribed
   * then and stayed so until now or until the current outage cut it (events without a subscriber
   * to lose, e.g. in-process ones, always qualify).
   */
  function subscribedThrough(confirmedAt: number): boolean {
    if (!events.onLost) return true;
    const connectedUntil = lostAt === null || lostAt < subscribedAt ? Number.POSITIVE_INFINITY : lostAt;
    return subscribedAt <= confirmedAt && confirmedAt <= connectedUntil;
  }

  /**
   * A store of its own (SQLite): a moved change marker means another process changed some key, so
   * every snapshot goes. A shared store needs no such sweep (a Redis commit anywhere would flush
   * every instance's cache): its per-key invalidations drop exactly the changed key, and `confirm`
   * checks each request's key against the store's version anyway.
   */
  function syncMarker(): void | Promise<void> {
    if (store.readKeyVersion) return;
    let current: number | Promise<number>;
    try {
      current = store.changeMarker();
    } catch (cause) {
      throw cause instanceof GatewayError ? cause : storeUnavailableError(cause);
    }
    if (typeof current === 'number') return applyMarker(current);
    return fromStore(() => current).then(applyMarker);
  }

  function applyMarker(current: number): void {
    if (marker !== undefined && current !== marker) {
      // Another process (the CLI) changed keys, perhaps created one: no event of it reaches here.
      snapshots.dropAll();
      negatives.clear();
      hooks.storeChanged?.();
    }
    marker = current;
  }

  /**
   * The store's row for the token's lookup, then its tag (else argon2): the secret, or null when the
   * token is refused. A store that answers at once (SQLite) is answered at once: an unknown lookup,
   * the common garbage, is refused without a promise or a turn of the event loop, as a peer's map
   * miss is.
   */
  function checkToken(token: string, parsed: ParsedToken, fingerprint: string): CheckedToken {
    const since = negatives.epoch();
    let found: FoundSecret | Promise<FoundSecret>;
    try {
      found = store.findByLookup(parsed.lookup);
    } catch (cause) {
      throw cause instanceof GatewayError ? cause : storeUnavailableError(cause);
    }
    if (found instanceof Promise) {
      return fromStore(() => found).then((row) => checkFound(token, parsed, fingerprint, row, since));
    }
    return checkFound(token, parsed, fingerprint, found, since);
  }

  function checkFound(
    token: string,
    parsed: ParsedToken,
    fingerprint: string,
    found: FoundSecret,
    since: number,
  ): CheckedToken {
    if (!found) {
      if (isListening() && !store.lookupsInMemory) negatives.rememberLookup(parsed.lookup, clock(), since);
      return null;
    }
    if (found.secret.keyId !== found.key.id || found.key.environment !== parsed.environment)
      return refuseToken(fingerprint, since);
    const ref = { keyId: found.key.id, secretId: found.secret.id };
    const tagged = hasher.checkTag?.(found.secret.tag, token) ?? 'unknown';
    if (tagged === 'mismatch') {
      hooks.verificationRefused?.('tag_mismatch');
      return refuseSecret(fingerprint, since, found.key);
    }
    if (tagged === 'match') {
      hooks.tagVerified?.();
      verified.set(fingerprint, ref);
      return ref;
    }
    return verifyUntagged(found.secret, token, parsed.lookup).then((ok) => {
      if (!ok) return refuseSecret(fingerprint, since, found.key);
      verified.set(fingerprint, ref);
      return ref;
    });
  }

  /**
   * argon2 for a secret without a tag of this key, within the guard's bounds; true when it matched.
   * A match gets this key's tag (best effort: a failed write only leaves it on this path).
   */
  async function verifyUntagged(secret: SecretRecord, token: string, lookup: string): Promise<boolean> {
    if (hasher.checkTag && guard.isThrottled(lookup, clock())) {
      hooks.verificationRefused?.('throttled');
      throw unknownKey();
    }
    const refusal = guard.begin(lookup, clock());
    if (refusal) {
      hooks.verificationRefused?.(refusal);
      throw refusal === 'busy' ? verificationBusy() : unknownKey();
    }
    let ok = false;
    try {
      ok = await hasher.verify(secret.hash, token);
    } finally {
      guard.end(lookup, ok, clock());
    }
    hooks.verification?.(ok);
    if (ok && hasher.tag) store.setSecretTag(secret, hasher.tag(token)).catch(() => {});
    return ok;
  }

  /** The token's secret; concurrent first uses of one token share a check that waits (store or argon2). */
  function resolveSecret(token: string, parsed: ParsedToken, fingerprint: string): CheckedToken {
    const shared = verifying.get(fingerprint);
    if (shared) return shared;
    const checked = checkToken(token, parsed, fingerprint);
    if (!(checked instanceof Promise)) return checked;
    const pending = checked.finally(() => verifying.delete(fingerprint));
    verifying.set(fingerprint, pending);
    return pending;
  }

  async function currentState(ref: SecretRef): Promise<VerifiedKey | null> {
    let snapshot = await fromStore(() => snapshots.get(ref.keyId));
    if (snapshot && !snapshot.secrets.has(ref.secretId)) {
      snapshots.drop(ref.keyId);
      snapshot = await fromStore(() => snapshots.get(ref.keyId));
    }
    return stateOf(snapshot, ref.secretId);
  }

  /** The version read answered: same version → as is; else the fresh state, checked. */
  async function settle(current: VerifiedKey, version: number | null, askedAt: number) {
    const { key, secret } = current;
    if (version === key.version) {
      snapshots.confirm(key.id, version, askedAt);
      hooks.versionCheck?.('current');
      return current;
    }
    hooks.versionCheck?.('changed');
    const fresh = stateOf(await fromStore(() => snapshots.atLeast(key.id, version)), secret.id);
    if (!fresh) throw unknownKey();
    checkState(fresh.key, fresh.secret, clock());
    return fresh;
  }

  /**
   * The version read failed: the cached state while its version was confirmed recently enough and
   * the events subscriber stayed subscribed since (else an invalidation may have been lost), else 503.
   */
  function withinStaleness(current: VerifiedKey, askedAt: number, cause: unknown): VerifiedKey {
    const confirmedAt = snapshots.confirmedAt(current.key.id, current.key.version);
    if (confirmedAt !== undefined && askedAt - confirmedAt <= stalenessMs && subscribedThrough(confirmedAt)) {
      hooks.versionCheck?.('stale');
      return current;
    }
    hooks.versionCheck?.('unavailable');
    throw cause instanceof GatewayError ? cause : storeUnavailableError(cause);
  }

  /**
   * The checked state of the token's secret once a cache miss was counted: found by its tag (else
   * argon2, once per secret), else 401 (thrown at once when the store answered at once).
   */
  function verifyMissed(
    token: string,
    parsed: ParsedToken,
    fingerprint: string,
    now: number,
  ): VerifiedKey | Promise<VerifiedKey> {
    // Without tags the throttle is checked before the lookup; with tags only for untagged secrets, after it.
    if (!hasher.checkTag && guard.isThrottled(parsed.lookup, now)) {
      hooks.verificationRefused?.('throttled');
      throw unknownKey();
    }
    const ref = resolveSecret(token, parsed, fingerprint);
    if (ref instanceof Promise) return ref.then((found) => stateOfFound(found, now));
    return stateOfFound(ref, now);
  }

  function stateOfFound(ref: SecretRef | null, now: number): VerifiedKey | Promise<VerifiedKey> {
    if (!ref) throw unknownKey();
    return stateNow(ref, now);
  }

  /** The checked state of a known secret: from the cached snapshot right away, else loaded. */
  function stateNow(ref: SecretRef, now: number): VerifiedKey | Promise<VerifiedKey> {
    const state = stateOf(snapshots.cached(ref.keyId) ?? null, ref.secretId);
    if (state) {
      checkState(state.key, state.secret, now);
      return state;
    }
    return currentState(ref).then((loaded) => {
      if (!loaded) throw unknownKey();
      checkState(loaded.key, loaded.secret, now);
      return loaded;
    });
  }

  const fingerprintOf = (token: string): string => hash('sha256', fingerprintSalt + token, 'base64url');

  /** Negative cache, positive cache (else argon2), then the key's current state. */
  function afterMarker(
    token: string,
    parsed: ParsedToken,
    fingerprint: string,
    now: number,
  ): VerifiedKey | Promise<VerifiedKey> {
    const refused = negatives.find(fingerprint, parsed.lookup, now);
    if (refused !== false) {
      if (events.settle) return refuseAfterPendingEvents(events.settle(), token, parsed, fingerprint, now);
      throw unknownKey(refused === true ? undefined : refused);
    }
    const ref = verified.get(fingerprint);
    if (ref) {
      hooks.cacheHit?.();
      return stateNow(ref, now);
    }
    hooks.cacheMiss?.();
    return verifyMissed(token, parsed, fingerprint, now);
  }

  /**
   * A remembered refusal, answered once the key events published before this request are read.
   * Shared events come on a subscriber connection of their own: the one announcing a key created by
   * another process right after its lookup was refused can still be unread (behind this request's
   * socket, or not yet written by Redis) when the request is handled. `settled` is the events'
   * barrier (one PING per turn for all refusals waiting); then the cache is asked again. If the
   * barrier fails (the subscriber is down, which clears the cache anyway), the refusal stands.
   */
  function refuseAfterPendingEvents(
    settled: Promise<void>,
    token: string,
    parsed: ParsedToken,
    fingerprint: string,
    now: number,
  ): Promise<VerifiedKey> {
    return settled.then(
      () => {
        const refused = negatives.find(fingerprint, parsed.lookup, now);
        if (refused !== false) throw unknownKey(refused === true ? undefined : refused);
        return afterMarker(token, parsed, fingerprint, now);
      },
      () => {
        const refused = negatives.find(fingerprint, parsed.lookup, now);
        throw unknownKey(refused === true || refused === false ? undefined : refused);
      },
    );
  }

  function verifyNow(
    token: string,
    parsed: ParsedToken,
    fingerprint = fingerprintOf(token),
  ): VerifiedKey | Promise<VerifiedKey> {
    const now = clock();
    const syncing = syncMarker();
    return syncing
      ? syncing.then(() => afterMarker(token, parsed, fingerprint, now))
      : afterMarker(token, parsed, fingerprint, now);
  }

  return {
    confirms: store.readKeyVersion !== undefined,
    verifyNow,
    fingerprintOf,
    async verify(token, parsed) {
      return verifyNow(token, parsed);
    },
    confirm(current) {
      if (!store.readKeyVersion) return Promise.resolve(current);
      const askedAt = clock();
      let reading: Promise<number | null>;
      try {
        // Queued in the same turn as the call count: a Redis store sends both in one script call.
        reading = store.readKeyVersion(current.key.id);
      } catch (error) {
        reading = Promise.reject(error);
      }
      return reading.then(
        (version) => settle(current, version, askedAt),
        (error: unknown) => withinStaleness(current, askedAt, error),
      );
    },
    dropAll() {
      snapshots.dropAll();
      negatives.clear();
    },
    get negativeEntries() {
      return negatives.size;
    },
    close() {
      for (const unsubscribe of unsubscribers) unsubscribe?.();
    },
  };
}
