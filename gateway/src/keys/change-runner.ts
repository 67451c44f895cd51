import { GatewayError } from '../errors.ts';
import type { KeyEvents } from '../model/events.ts';
import { isKeyExpired } from '../model/lifecycle.ts';
import type { ActivityAction, Actor, ApiKey, IdempotencySettle, SecretRecord } from '../model/model.ts';
import type { KeyStore } from '../store/store.ts';
import type { AnswerRecorder } from './service-context.ts';
import { newId } from './token.ts';

/** A key with its secrets (newest first). */
export interface KeyState {
  key: ApiKey;
  secrets: SecretRecord[];
}

/** What one change does: the key's new fields, the secrets it adds or alters, and how to log it. */
export interface ChangePlan {
  key: ApiKey;
  secrets: SecretRecord[];
  action: ActivityAction;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  details?: Record<string, unknown>;
}

/** Who asks for a change, and from where. */
export interface ChangeOrigin {
  actor: Actor;
  sourceIp: string | null;
}

export interface ChangeDeps {
  store: KeyStore;
  events: KeyEvents;
  clock: () => number;
}

/** Loads a key and its secrets; 404 when there is no such key. */
export async function loadKeyState(store: KeyStore, keyId: string): Promise<KeyState> {
  const key = await store.getKey(keyId);
  if (!key) throw new GatewayError('KEY_NOT_FOUND', `No API key ${keyId}.`);
  return { key, secrets: await store.listSecrets(keyId) };
}

/** The Idempotency-Key record of a change from the state it makes (undefined: the change carries none). */
export interface StateRecorder {
  recordOf(state: KeyState): IdempotencySettle | undefined;
  committed(settle: IdempotencySettle): void;
}

/** A StateRecorder of a service result (`resultOf` maps the state after the change to it). */
export function recorderOfState<R>(
  answer: AnswerRecorder<R> | undefined,
  resultOf: (state: KeyState) => R,
): StateRecorder | undefined {
  return answer && { recordOf: (state) => answer.recordOf(resultOf(state)), committed: answer.committed };
}

/**
 * Runs one change: loads the key, lets `plan` decide (it may throw, or return null for "nothing to
 * do"), commits key + secrets + activity entry, and the request's Idempotency-Key record when
 * `answer` is given (built from the state the change makes), in ONE store transaction guarded by
 * the key's version, then publishes the key id. A version conflict re-plans once on fresh state; a
 * second conflict is 409 CONFLICT.
 */
export async function applyChange(
  deps: ChangeDeps,
  keyId: string,
  origin: ChangeOrigin,
  plan: (state: KeyState, nowMs: number) => ChangePlan | null,
  answer?: StateRecorder,
): Promise<KeyState> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const nowMs = deps.clock();
    const state = await loadKeyState(deps.store, keyId);
    const change = plan(state, nowMs);
    if (!change) return state;
    const at = new Date(nowMs).toISOString();
    const key: ApiKey = { ...change.key, version: state.key.version + 1, updatedAt: at };
    const next: KeyState = { key, secrets: mergeSecrets(state.secrets, change.secrets) };
    const idempotency = answer?.recordOf(next);
    const committed = await deps.store.commitChange({
      ...(idempotency ? { idempotency } : {}),
      key,
      expectedVersion: state.key.version,
      secrets: change.secrets,
      activity: {
        id: newId('act'),
        keyId,
        environment: key.environment,
        action: change.action,
        actor: origin.actor,
        at,
        sourceIp: origin.sourceIp,
        before: change.before,
        after: change.after,
        details: change.details ?? {},
      },
    });
    if (committed) {
      if (idempotency) answer?.committed(idempotency);
      deps.events.publish(
        keyId,
        change.secrets.map((secret) => secret.lookup),
      );
      return next;
    }
  }
  throw new GatewayError('CONFLICT', `API key ${keyId} was changed concurrently; retry the request.`);
}

/** Replaces changed secrets by id and puts new ones first (newest first). */
function mergeSecrets(current: readonly SecretRecord[], changed: readonly SecretRecord[]): SecretRecord[] {
  const byId = new Map(changed.map((secret) => [secret.id, secret]));
  const added = changed.filter((secret) => !current.some((existing) => existing.id === secret.id));
  return [...added, ...current.map((secret) => byId.get(secret.id) ?? secret)];
}

/** Refuses changes to a revoked key (and, unless allowed, to an expired one) with 409 KEY_NOT_ACTIVE. */
export function assertKeyActive(key: ApiKey, nowMs: number, options: { allowExpired?: boolean } = {}): void {
  if (key.status !== 'active') {
    throw new GatewayError('KEY_NOT_ACTIVE', `API key ${key.id} is revoked.`);
  }
  if (!options.allowExpired && isKeyExpired(key, nowMs)) {
    throw new GatewayError('KEY_NOT_ACTIVE', `API key ${key.id} expired on ${key.expiresAt}.`);
  }
}

/**
 * The acting key, read fresh from the store, for an actor of type `key`; null for administrators
 * and the system. A calling key that has meanwhile been revoked or expired is refused (401).
 */
export async function resolveActorKey(
  deps: Pick<ChangeDeps, 'store' | 'clock'>,
  actor: Actor,
): Promise<ApiKey | null> {
  if (actor.type !== 'key') return null;
  const key = await deps.store.getKey(actor.id);
  if (!key) throw new GatewayError('UNKNOWN_KEY', 'The calling API key no longer exists.');
  if (key.status !== 'active') throw new GatewayError('KEY_REVOKED', 'The calling API key is revoked.');
  if (isKeyExpired(key, deps.clock()))
    throw new GatewayError('KEY_EXPIRED', 'The calling API key has expired.');
  return key;
}
