import type { ApiKey, SecretRecord } from '../model/model.ts';
import type { RouteMatch } from '../routes/route-matcher.ts';

/** The caller every request is proxied as while policies are off (KEYGATE_POLICIES=off). */
export const POLICIES_OFF_KEY_ID = 'key_policies_off';

const EPOCH = new Date(0).toISOString();

/** The fixed test-environment key asserted upstream for a route: it holds exactly the route's scope. */
function benchKeyFor(route: RouteMatch & { kind: 'proxy' }): { key: ApiKey; secret: SecretRecord } {
  const key: ApiKey = {
    id: POLICIES_OFF_KEY_ID,
    name: 'policies off (benchmarking mode)',
    environment: 'test',
    scopes: [route.scope],
    expiresAt: null,
    ipAllowlist: [],
    rateLimit: { perMinute: Number.MAX_SAFE_INTEGER },
    prefix: 'kg_test_policiesoff',
    status: 'active',
    revokedAt: null,
    remindersSent: [],
    createdAt: EPOCH,
    updatedAt: EPOCH,
    lastCallAt: null,
    version: 1,
  };
  const secret: SecretRecord = {
    id: 'sec_policies_off',
    keyId: key.id,
    lookup: 'policiesoff',
    prefix: key.prefix,
    hash: '',
    createdAt: EPOCH,
    closesAt: null,
    closedAt: null,
    closedReason: null,
    callCount: 0,
    lastCallAt: null,
  };
  return { key: Object.freeze(key), secret: Object.freeze(secret) };
}

/**
 * The callers of the benchmarking mode: every proxied route is called as a fixed test-environment
 * key holding exactly the route's scope (one per route, made on first use). No key is read, no
 * rate limit counted, no usage recorded.
 */
export function createBenchCallers(): (route: RouteMatch & { kind: 'proxy' }) => {
  key: ApiKey;
  secret: SecretRecord;
} {
  const callers = new Map<string, { key: ApiKey; secret: SecretRecord }>();
  return (route) => {
    let caller = callers.get(route.rule);
    if (!caller) {
      caller = benchKeyFor(route);
      callers.set(route.rule, caller);
    }
    return caller;
  };
}
