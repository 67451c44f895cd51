import { coversScopes } from '@keygate/identity';
import { GatewayError } from '../errors.ts';
import type { ApiKey, Environment } from '../model/model.ts';
import { isEntryCovered } from './ip-ranges.ts';

/**
 * The no-escalation rules applied when the actor is an API key (administrators bypass them).
 * Each refusal is 403 ESCALATION_DENIED with `rule` naming the rule that refused:
 * - `environment`: a key acts only in its own environment;
 * - `scopes`: granted scopes must be covered by the actor's (`x:rw` covers `x:r`);
 * - `auth_scope`: no `auth:*` scope is ever granted through the API;
 * - `expiry`: an actor that expires grants only keys that expire no later;
 * - `ip_allowlist`: an actor with an allowlist grants only non-empty allowlists inside its ranges;
 * - `rate_limit`: no higher rate limit than the actor's;
 * - `target_scopes`: a key cannot change, rotate or revoke a key it does not cover;
 * - `self_widening`: a key cannot widen its own scopes.
 * A key of another environment answers 404 KEY_NOT_FOUND, so its existence is not revealed.
 */
export type EscalationRule =
  | 'environment'
  | 'scopes'
  | 'auth_scope'
  | 'expiry'
  | 'ip_allowlist'
  | 'rate_limit'
  | 'target_scopes'
  | 'self_widening';

/** The permissions a key carries, i.e. what creating or rotating it hands out. */
export interface Grant {
  environment: Environment;
  scopes: string[];
  expiresAt: string | null;
  ipAllowlist: string[];
  rateLimit: { perMinute: number };
}

function deny(rule: EscalationRule, detail: string): GatewayError {
  return new GatewayError('ESCALATION_DENIED', detail, { rule });
}

/** 404 for a key the actor may not see (another environment). */
export function keyNotFound(keyId: string): GatewayError {
  return new GatewayError('KEY_NOT_FOUND', `No API key ${keyId} in this environment.`);
}

/** Scopes in `wanted` on the `auth` resource that `existing` does not already cover. */
function addedAuthScopes(wanted: readonly string[], existing: readonly string[]): string[] {
  return wanted.filter((scope) => scope.startsWith('auth:') && !coversScopes(existing, [scope]));
}

/** Refuses a grant that would give more than the actor holds. `existingScopes` are not re-granted. */
export function assertGrantWithin(actor: ApiKey, grant: Grant, existingScopes: readonly string[] = []): void {
  if (grant.environment !== actor.environment) {
    throw deny('environment', `A ${actor.environment} key can only manage ${actor.environment} keys.`);
  }
  const auth = addedAuthScopes(grant.scopes, existingScopes);
  if (auth.length > 0) {
    throw deny('auth_scope', `${auth.join(', ')} cannot be granted through the API; ask an administrator.`);
  }
  assertScopesCovered(actor, grant.scopes, 'scopes');
  if (actor.expiresAt !== null && (grant.expiresAt === null || grant.expiresAt > actor.expiresAt)) {
    throw deny('expiry', `The key must expire no later than the calling key (${actor.expiresAt}).`);
  }
  if (actor.ipAllowlist.length > 0) {
    const outside = grant.ipAllowlist.filter((entry) => !isEntryCovered(entry, actor.ipAllowlist));
    if (grant.ipAllowlist.length === 0 || outside.length > 0) {
      throw deny(
        'ip_allowlist',
        `The key needs an IP allowlist inside the calling key's (${actor.ipAllowlist.join(', ')})` +
          (outside.length > 0 ? `; outside: ${outside.join(', ')}.` : '.'),
      );
    }
  }
  if (grant.rateLimit.perMinute > actor.rateLimit.perMinute) {
    throw deny(
      'rate_limit',
      `The rate limit cannot exceed the calling key's (${actor.rateLimit.perMinute}/min).`,
    );
  }
}

function assertScopesCovered(actor: ApiKey, scopes: readonly string[], rule: EscalationRule): void {
  const missing = scopes.filter((scope) => !coversScopes(actor.scopes, [scope]));
  if (missing.length > 0) {
    throw deny(rule, `The calling key does not hold ${missing.join(', ')}.`);
  }
}

/** Refuses touching a key of another environment (404) or a key the actor does not cover (403). */
export function assertCanTouch(actor: ApiKey, target: ApiKey): void {
  if (target.environment !== actor.environment) throw keyNotFound(target.id);
  const missing = target.scopes.filter((scope) => !coversScopes(actor.scopes, [scope]));
  if (missing.length > 0) {
    throw deny(
      'target_scopes',
      `Key ${target.id} holds ${missing.join(', ')}, which the calling key does not.`,
    );
  }
}

/**
 * Refuses a scope change that widens the actor itself, grants `auth:*`, or grants what the actor
 * lacks. On another key, the result must also be a key the actor could have created (as for a
 * rotation): expiry no later than the actor's, an allowlist inside the actor's, rate limit ≤ the
 * actor's. A key narrowing itself always passes those.
 */
export function assertScopeChange(actor: ApiKey, target: ApiKey, scopes: readonly string[]): void {
  if (actor.id === target.id && !coversScopes(actor.scopes, scopes)) {
    throw deny('self_widening', 'A key cannot widen its own scopes.');
  }
  if (actor.id !== target.id) {
    assertGrantWithin(actor, { ...target, scopes: [...scopes] }, target.scopes);
    return;
  }
  const auth = addedAuthScopes(scopes, target.scopes);
  if (auth.length > 0) {
    throw deny('auth_scope', `${auth.join(', ')} cannot be granted through the API; ask an administrator.`);
  }
  assertScopesCovered(actor, scopes, 'scopes');
}
