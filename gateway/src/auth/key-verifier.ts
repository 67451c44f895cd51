import { createHmac, randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { GatewayError } from '../errors.ts';
import type { KeyEvents } from '../keys/events.ts';
import type { SecretHasher } from '../keys/hasher.ts';
import { isKeyExpired, isSecretUsable } from '../keys/lifecycle.ts';
import type { ApiKey, SecretRecord } from '../keys/model.ts';
import type { ParsedToken } from '../keys/token.ts';
import type { KeyStore } from '../store/store.ts';
import { compileIpRules, type IpRules } from './ip-rules.ts';
import { createLruCache } from './lru-cache.ts';
import { createVerificationGuard, type VerificationRefusal } from './verification-guard.ts';

/** What a verified token stands for; immutable, so it may be cached for the life of the process. */
interface SecretRef {
  keyId: string;
  secretId: string;
}

/** The current state of a key, cached until an event or a store change marker says otherwise. */
export interface KeySnapshot {
  key: ApiKey;
  secrets: ReadonlyMap<string, SecretRecord>;
  /** The key's allowlist, compiled once per snapshot. */
  allowlist: IpRules;
}

export interface VerifiedKey {
  key: ApiKey;
  secret: SecretRecord;
  allowlist: IpRules;
}

/** Counters the verifier reports to; all optional. */
export interface VerifierHooks {
  cacheHit?(): void;
  cacheMiss?(): void;
  verification?(ok: boolean): void;
  /** An argon2 verification was not attempted: the lookup is throttled, or too many run at once. */
  verificationRefused?(reason: VerificationRefusal): void;
}

export interface KeyVerifier {
  /** Verifies a well-formed token and checks the key's current state; throws a 401 GatewayError otherwise. */
  verify(token: string, parsed: ParsedToken): Promise<VerifiedKey>;
  /** Stops listening to key events. */
  close(): void;
}

export interface KeyVerifierOptions {
  store: KeyStore;
  hasher: SecretHasher;
  events: KeyEvents;
  clock: () => number;
  maxEntries: number;
  /** How long a failed token is refused without a lookup (ms). */
  negativeTtlMs?: number;
  /** argon2 verifications running at once at most (default 2 × CPUs); beyond it 503 VERIFICATION_BUSY. */
  maxConcurrentVerifications?: number;
  /** Failed verifications per lookup and window before the lookup is throttled (default 5 per 60 s). */
  failureThrottle?: { maxFailures: number; windowMs: number };
  hooks?: VerifierHooks;
}

/** Default per-lookup failure throttle: 5 failed verifications within 60 s. */
export const DEFAULT_FAILURE_THROTTLE = Object.freeze({ maxFailures: 5, windowMs: 60_000 });

const unknownKey = () => new GatewayError('UNKNOWN_KEY', 'No active API key matches this token.');
const BUSY_DETAIL = 'Too many API keys are being verified right now; retry in a second.';
const verificationBusy = () => new GatewayError('VERIFICATION_BUSY', BUSY_DETAIL, { retryAfter: 1 });

async function fromStore<T>(work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (cause) {
    throw Object.assign(
      new GatewayError('STORE_UNAVAILABLE', 'The key store is not answering; retry shortly.'),
      {
        cause,
      },
    );
  }
}

/** Refuses a key or secret whose current state forbids use; `nowMs` is the request's time. */
function checkState(key: ApiKey, secret: SecretRecord, nowMs: number): void {
  if (key.status === 'revoked') throw new GatewayError('KEY_REVOKED', 'This API key has been revoked.');
  if (!isSecretUsable(secret, nowMs)) {
    throw new GatewayError('SECRET_CLOSED', 'This secret was closed; use the key’s newer secret.');
  }
  if (isKeyExpired(key, nowMs)) {
    throw new GatewayError('KEY_EXPIRED', `This API key expired at the end of ${key.expiresAt} (UTC).`);
  }
}

/**
 * Token verification with argon2 at most once per secret per process: an HMAC fingerprint of the
 * token maps to `{keyId, secretId}` (concurrent first uses share one verification; failures are
 * refused briefly by fingerprint), while key state comes from per-key snapshots that are dropped on
 * a key event and wholesale when the store's change marker moves.
 *
 * argon2 work is bounded: after `failureThrottle.maxFailures` failed verifications of one lookup
 * within the window, tokens of that lookup not already verified are refused (401 UNKNOWN_KEY)
 * without argon2 until the window passes; a token verified before keeps working from the cache,
 * while a right token not yet verified on this instance waits for the window like a wrong one.
 * Beyond `maxConcurrentVerifications` running at once, 503 VERIFICATION_BUSY (`retryAfter: 1`).
 */
export function createKeyVerifier(options: KeyVerifierOptions): KeyVerifier {
  const { store, hasher, events, clock, maxEntries, hooks = {} } = options;
  const negativeTtlMs = options.negativeTtlMs ?? 10_000;
  const throttle = options.failureThrottle ?? DEFAULT_FAILURE_THROTTLE;
  const guard = createVerificationGuard({
    maxFailuresPerLookup: throttle.maxFailures,
    failureWindowMs: throttle.windowMs,
    maxConcurrent: options.maxConcurrentVerifications ?? 2 * availableParallelism(),
    maxTrackedLookups: Math.min(maxEntries, 10_000),
  });
  const fingerprintKey = randomBytes(32);
  const verified = createLruCache<SecretRef>(maxEntries);
  const refused = createLruCache<true>(Math.min(maxEntries, 10_000));
  const verifying = new Map<string, Promise<SecretRef | null>>();
  const snapshots = createLruCache<KeySnapshot>(maxEntries);
  const loading = new Map<string, Promise<KeySnapshot | null>>();
  // Bumped on every invalidation; a snapshot load that saw a bump while running is not cached.
  let epoch = 0;
  let marker: number | undefined;

  const dropKey = (keyId: string) => {
    epoch++;
    snapshots.delete(keyId);
    loading.delete(keyId);
  };
  const dropAll = () => {
    epoch++;
    snapshots.clear();
    loading.clear();
  };
  const unsubscribe = events.subscribe(dropKey);

  async function syncMarker(): Promise<void> {
    const current = await fromStore(() => store.changeMarker());
    if (marker !== undefined && current !== marker) dropAll();
    marker = current;
  }

  async function checkToken(
    token: string,
    parsed: ParsedToken,
    fingerprint: string,
  ): Promise<SecretRef | null> {
    const found = await fromStore(() => store.findByLookup(parsed.lookup));
    if (!found || found.secret.keyId !== found.key.id || found.key.environment !== parsed.environment)
      return null;
    const refusal = guard.begin(parsed.lookup, clock());
    if (refusal) {
      hooks.verificationRefused?.(refusal);
      throw refusal === 'busy' ? verificationBusy() : unknownKey();
    }
    let ok = false;
    try {
      ok = await hasher.verify(found.secret.hash, token);
    } finally {
      guard.end(parsed.lookup, ok, clock());
    }
    hooks.verification?.(ok);
    if (!ok) return null;
    const ref = { keyId: found.key.id, secretId: found.secret.id };
    verified.set(fingerprint, ref);
    return ref;
  }

  function resolveSecret(token: string, parsed: ParsedToken, fingerprint: string): Promise<SecretRef | null> {
    let pending = verifying.get(fingerprint);
    if (!pending) {
      pending = checkToken(token, parsed, fingerprint).finally(() => verifying.delete(fingerprint));
      verifying.set(fingerprint, pending);
    }
    return pending;
  }

  async function loadSnapshot(keyId: string): Promise<KeySnapshot | null> {
    const startedAt = epoch;
    const [key, secrets] = await fromStore(() =>
      Promise.all([store.getKey(keyId), store.listSecrets(keyId)]),
    );
    if (!key) return null;
    const snapshot: KeySnapshot = {
      key,
      secrets: new Map(secrets.map((secret) => [secret.id, secret])),
      allowlist: compileIpRules(key.ipAllowlist),
    };
    if (epoch === startedAt) snapshots.set(keyId, snapshot);
    return snapshot;
  }

  function snapshotOf(keyId: string): Promise<KeySnapshot | null> {
    const cached = snapshots.get(keyId);
    if (cached) return Promise.resolve(cached);
    let pending = loading.get(keyId);
    if (!pending) {
      pending = loadSnapshot(keyId).finally(() => {
        if (loading.get(keyId) === pending) loading.delete(keyId);
      });
      loading.set(keyId, pending);
    }
    return pending;
  }

  async function currentState(ref: SecretRef): Promise<VerifiedKey | null> {
    let snapshot = await snapshotOf(ref.keyId);
    if (snapshot && !snapshot.secrets.has(ref.secretId)) {
      dropKey(ref.keyId);
      snapshot = await snapshotOf(ref.keyId);
    }
    const secret = snapshot?.secrets.get(ref.secretId);
    return snapshot && secret ? { key: snapshot.key, secret, allowlist: snapshot.allowlist } : null;
  }

  return {
    async verify(token, parsed) {
      const now = clock();
      await syncMarker();
      const fingerprint = createHmac('sha256', fingerprintKey).update(token).digest('base64url');
      if (refused.get(fingerprint, now)) throw unknownKey();
      let ref = verified.get(fingerprint);
      if (ref) hooks.cacheHit?.();
      else {
        hooks.cacheMiss?.();
        if (guard.isThrottled(parsed.lookup, now)) {
          hooks.verificationRefused?.('throttled');
          throw unknownKey();
        }
        ref = (await resolveSecret(token, parsed, fingerprint)) ?? undefined;
        if (!ref) {
          refused.set(fingerprint, true, now + negativeTtlMs);
          throw unknownKey();
        }
      }
      const state = await currentState(ref);
      if (!state) throw unknownKey();
      checkState(state.key, state.secret, now);
      return state;
    },
    close: unsubscribe,
  };
}
