import type { IdempotencyRecord } from '@keygate/contracts/idempotency';
import { DAY_MS, expiryEndMs } from '../../src/model/lifecycle.ts';
import type {
  ActivityEntry,
  AdminSession,
  AdminUser,
  ApiKey,
  ApiLogEntry,
  IdempotencySettle,
  KeyChange,
  SecretRecord,
  UsageBucket,
} from '../../src/model/model.ts';
import type { KeyStore, Page } from '../../src/store/store.ts';
import { createMemoryBudgetConfig, type MemoryBudgetState } from './memory-budget-config.ts';

/** An in-memory KeyStore for the data-plane tests; counts every call so tests can prove what was (not) read. */
export interface MemoryStore extends KeyStore, MemoryBudgetState {
  keys: Map<string, ApiKey>;
  secrets: Map<string, SecretRecord>;
  usage: UsageBucket[][];
  logs: ApiLogEntry[];
  /** Calls per method name. */
  calls: Record<string, number>;
  /** Total calls of every method. */
  totalCalls(): number;
  /** Simulates a commit by another process (the CLI): moves the change marker. */
  bumpMarker(): void;
  /** Makes `method` reject until restored. */
  failing: Set<string>;
}

export interface MemoryStoreOptions {
  /** Adds `readKeyVersion`, making the store behave like a shared (Redis) store for the pipeline. */
  versioned?: boolean;
}

export function createMemoryStore(options: MemoryStoreOptions = {}): MemoryStore {
  const keys = new Map<string, ApiKey>();
  const secrets = new Map<string, SecretRecord>();
  const activity: ActivityEntry[] = [];
  const admins: AdminUser[] = [];
  const sessions = new Map<string, AdminSession>();
  const failures = new Map<string, { count: number; resetAt: number }>();
  const calls: Record<string, number> = {};
  const failing = new Set<string>();
  const idempotency = new Map<string, string>();
  let marker = 0;
  const clone = <T>(value: T): T => structuredClone(value);
  const track = (method: string) => {
    calls[method] = (calls[method] ?? 0) + 1;
    if (failing.has(method)) throw new Error(`${method} failed (simulated)`);
  };
  const page = <T>(items: T[]): Page<T> => ({ items, nextCursor: null });
  const budget: MemoryBudgetState = { plans: new Map(), identities: new Map(), balances: new Map() };

  const budgetConfig = createMemoryBudgetConfig(keys, budget, track, () => {
    marker++;
  });
  /** A write with its Idempotency-Key record, both or neither (as the real stores write them). */
  const settled = async (settle: IdempotencySettle | undefined, write: () => Promise<boolean>) => {
    const name = settle && `${settle.keyId} ${settle.keyHash}`;
    if (settle && idempotency.get(name!) !== JSON.stringify(settle.expected)) return false;
    if (!(await write())) return false;
    if (settle) idempotency.set(name!, JSON.stringify(settle.next));
    return true;
  };

  const store: MemoryStore = {
    keys,
    secrets,
    ...budget,
    usage: [],
    logs: [],
    calls,
    failing,
    totalCalls: () => Object.values(calls).reduce((sum, count) => sum + count, 0),
    bumpMarker: () => {
      marker++;
    },
    async commitChange(change: KeyChange) {
      track('commitChange');
      const current = keys.get(change.key.id);
      if ((current?.version ?? null) !== change.expectedVersion) return false;
      const { planId, identityId } = change.key;
      if (planId && !budget.plans.has(planId)) return false;
      if (identityId && !budget.identities.has(identityId)) return false;
      const settle = change.idempotency;
      const recordName = settle && `${settle.keyId} ${settle.keyHash}`;
      if (settle && idempotency.get(recordName!) !== JSON.stringify(settle.expected)) return false;
      if (settle) idempotency.set(recordName!, JSON.stringify(settle.next));
      keys.set(change.key.id, clone(change.key));
      if (change.creditsBalance && change.expectedVersion === null)
        budget.balances.set(change.key.id, { ...change.creditsBalance });
      for (const secret of change.secrets) secrets.set(secret.id, clone(secret));
      activity.push(clone(change.activity));
      return true;
    },
    async getKey(id) {
      track('getKey');
      const key = keys.get(id);
      return key ? clone(key) : null;
    },
    async listKeys() {
      track('listKeys');
      return [...keys.values()].map(clone);
    },
    async listSecrets(keyId) {
      track('listSecrets');
      return [...secrets.values()].filter((secret) => secret.keyId === keyId).map(clone);
    },
    async listSweepCandidates(nowMs, reminderLeadDays) {
      track('listSweepCandidates');
      const ids = new Set<string>();
      for (const secret of secrets.values()) {
        if (secret.closedAt === null && secret.closesAt !== null && Date.parse(secret.closesAt) <= nowMs) {
          ids.add(secret.keyId);
        }
      }
      for (const key of keys.values()) {
        if (key.status !== 'active' || key.expiresAt === null) continue;
        const end = expiryEndMs(key.expiresAt);
        const entered = (lead: number) => end > nowMs && end <= nowMs + lead * DAY_MS;
        if (reminderLeadDays.some((lead) => entered(lead) && !key.remindersSent.includes(lead)))
          ids.add(key.id);
      }
      return [...ids].sort();
    },
    async setSecretTag({ id }, tag) {
      track('setSecretTag');
      const secret = secrets.get(id);
      if (secret) secret.tag = tag;
    },
    async findByLookup(lookup) {
      track('findByLookup');
      const secret = [...secrets.values()].find((candidate) => candidate.lookup === lookup);
      const key = secret ? keys.get(secret.keyId) : undefined;
      return secret && key ? { key: clone(key), secret: clone(secret) } : null;
    },
    async listActivity() {
      track('listActivity');
      return page(activity.map(clone));
    },
    async appendActivity(entry) {
      track('appendActivity');
      activity.push(clone(entry));
    },
    async recordUsage(buckets) {
      track('recordUsage');
      store.usage.push(clone(buckets));
    },
    async queryUsage(query) {
      track('queryUsage');
      return store.usage.flat().filter((bucket) => bucket.keyId === query.keyId);
    },
    async pruneUsage(beforeMs) {
      track('pruneUsage');
      const before = store.usage.flat().length;
      store.usage = store.usage
        .map((batch) => batch.filter((bucket) => bucket.minute >= beforeMs))
        .filter((batch) => batch.length > 0);
      return before - store.usage.flat().length;
    },
    async appendLogs(entries) {
      track('appendLogs');
      store.logs.push(...clone(entries));
    },
    async queryLogs(filter) {
      track('queryLogs');
      return page(store.logs.filter((entry) => entry.keyId === filter.keyId));
    },
    async pruneLogs(before) {
      track('pruneLogs');
      const kept = store.logs.filter((entry) => entry.at >= before);
      const removed = store.logs.length - kept.length;
      store.logs = kept;
      return removed;
    },
    async readIdempotency(keyId, keyHash) {
      track('readIdempotency');
      const text = idempotency.get(`${keyId} ${keyHash}`);
      return text === undefined ? null : (JSON.parse(text) as IdempotencyRecord);
    },
    async swapIdempotency(keyId, keyHash, expected, next) {
      track('swapIdempotency');
      const name = `${keyId} ${keyHash}`;
      if ((idempotency.get(name) ?? null) !== (expected === null ? null : JSON.stringify(expected)))
        return false;
      if (next === null) idempotency.delete(name);
      else idempotency.set(name, JSON.stringify(next));
      return true;
    },
    async pruneIdempotency(nowMs) {
      track('pruneIdempotency');
      let removed = 0;
      for (const [name, text] of idempotency) {
        if ((JSON.parse(text) as IdempotencyRecord).expiresAt <= nowMs && idempotency.delete(name)) removed++;
      }
      return removed;
    },
    async createAdmin(user) {
      track('createAdmin');
      if (admins.some((admin) => admin.email === user.email)) return false;
      admins.push(user);
      return true;
    },
    async findAdminByEmail(email) {
      track('findAdminByEmail');
      return admins.find((admin) => admin.email.toLowerCase() === email.toLowerCase()) ?? null;
    },
    async createAdminSession(session) {
      track('createAdminSession');
      sessions.set(session.tokenHash, clone(session));
    },
    async getAdminSession(tokenHash) {
      track('getAdminSession');
      const session = sessions.get(tokenHash);
      return session ? clone(session) : null;
    },
    async touchAdminSession(tokenHash, lastSeenAt, idleExpiresAt) {
      track('touchAdminSession');
      const session = sessions.get(tokenHash);
      if (!session) return false;
      Object.assign(session, { lastSeenAt, idleExpiresAt });
      return true;
    },
    async deleteAdminSession(tokenHash) {
      track('deleteAdminSession');
      sessions.delete(tokenHash);
    },
    async pruneAdminSessions(nowMs) {
      track('pruneAdminSessions');
      let removed = 0;
      for (const [hash, session] of sessions) {
        if (Math.min(session.idleExpiresAt, session.expiresAt) <= nowMs && sessions.delete(hash)) removed++;
      }
      for (const [subject, window] of failures) {
        if (window.resetAt <= nowMs && failures.delete(subject)) removed++;
      }
      return removed;
    },
    async countLoginFailure(subject, windowMs, nowMs) {
      track('countLoginFailure');
      const current = failures.get(subject);
      const next =
        current && current.resetAt > nowMs
          ? { count: current.count + 1, resetAt: current.resetAt }
          : { count: 1, resetAt: nowMs + windowMs };
      failures.set(subject, next);
      return { ...next };
    },
    async readLoginFailures(subject, nowMs) {
      track('readLoginFailures');
      const current = failures.get(subject);
      return current && current.resetAt > nowMs ? { ...current } : null;
    },
    ...budgetConfig,
    createPlan: (plan, settle) => settled(settle, () => budgetConfig.createPlan(plan)),
    updatePlan: (plan, version, settle) => settled(settle, () => budgetConfig.updatePlan(plan, version)),
    createIdentity: (creation, settle) => settled(settle, () => budgetConfig.createIdentity(creation)),
    updateIdentity: (identity, version, settle) =>
      settled(settle, () => budgetConfig.updateIdentity(identity, version)),
    async clearLoginFailures(subject) {
      track('clearLoginFailures');
      failures.delete(subject);
    },
    changeMarker() {
      track('changeMarker');
      return marker;
    },
    async ping() {
      track('ping');
      return true;
    },
    async close() {},
  };
  if (options.versioned) {
    store.readKeyVersion = async (keyId) => {
      track('readKeyVersion');
      return keys.get(keyId)?.version ?? null;
    };
  }
  return store;
}
