import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openSqliteKeyStore } from '../../../src/store/sqlite/sqlite-store.ts';
import type { KeyStore } from '../../../src/store/store.ts';
import { makeActivity, makeKey, makeSecret, T0 } from '../../store.contract.ts';
import { makeIdentity, makePlan } from '../../store-budget.contract.ts';

describe('SQLite key store: plans, identities and credit balances', () => {
  let dir: string;
  let file: string;
  let store: KeyStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'keygate-budget-'));
    file = join(dir, 'gateway.db');
    store = openSqliteKeyStore(file);
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const balances = () => {
    const db = new Database(file, { readonly: true });
    try {
      return db.prepare('SELECT subject, remaining, refilled_at AS refilledAt FROM credit_balances').all();
    } finally {
      db.close();
    }
  };

  it('creates the engine’s tables with their columns', () => {
    const db = new Database(file, { readonly: true });
    try {
      const columns = (table: string) =>
        db
          .prepare(`PRAGMA table_info(${table})`)
          .all()
          .map((row) => (row as { name: string }).name);
      assert.deepEqual(columns('credit_balances'), ['subject', 'remaining', 'refilled_at']);
      assert.deepEqual(columns('budget_counters'), ['subject', 'name', 'window_start', 'used']);
      assert.deepEqual(columns('budget_usage'), ['subject', 'day', 'outcome', 'calls', 'cost']);
    } finally {
      db.close();
    }
  });

  it('writes a key’s and an identity’s starting balance with them', async () => {
    const key = makeKey({ credits: { refill: null } });
    const change = {
      key,
      expectedVersion: null,
      secrets: [makeSecret(key.id)],
      activity: makeActivity(key),
      creditsBalance: { remaining: 250, refilledAt: T0 },
    };
    assert.equal(await store.commitChange(change), true);
    const identity = makeIdentity({ credits: { refill: null } });
    await store.createIdentity({ identity, creditsBalance: { remaining: 9, refilledAt: T0 + 1 } });
    assert.deepEqual(balances(), [
      { subject: key.id, remaining: 250, refilledAt: T0 },
      { subject: identity.id, remaining: 9, refilledAt: T0 + 1 },
    ]);
    assert.equal(await store.deleteIdentity(identity.id), 'deleted');
    assert.deepEqual(balances(), [{ subject: key.id, remaining: 250, refilledAt: T0 }]);
  });

  it('refuses a key change naming a plan or an identity that does not exist, writing nothing', async () => {
    const key = makeKey({ planId: 'plan_gone' });
    const change = { key, expectedVersion: null, secrets: [makeSecret(key.id)], activity: makeActivity(key) };
    assert.equal(await store.commitChange(change), false);
    const orphan = makeKey({ identityId: 'idt_gone' });
    assert.equal(
      await store.commitChange({
        key: orphan,
        expectedVersion: null,
        secrets: [makeSecret(orphan.id)],
        activity: makeActivity(orphan),
      }),
      false,
    );
    assert.equal(await store.getKey(key.id), null);
    assert.equal(await store.getKey(orphan.id), null);
  });

  it('moves another connection’s change marker on every plan and identity change, as a key change does', async () => {
    const peer = openSqliteKeyStore(file);
    try {
      const moved = async (work: () => Promise<unknown>) => {
        const before = await store.changeMarker();
        await work();
        await new Promise((resolve) => setImmediate(resolve));
        return (await store.changeMarker()) !== before;
      };
      const plan = makePlan();
      assert.ok(await moved(() => peer.createPlan(plan)), 'plan creation');
      assert.ok(await moved(() => peer.updatePlan({ ...plan, version: 2 }, 1)), 'plan update');
      const identity = makeIdentity();
      assert.ok(await moved(() => peer.createIdentity({ identity })), 'identity creation');
      assert.ok(await moved(() => peer.updateIdentity({ ...identity, version: 2 }, 1)), 'identity update');
      assert.ok(await moved(() => peer.deleteIdentity(identity.id)), 'identity deletion');
      assert.ok(await moved(() => peer.deletePlan(plan.id)), 'plan deletion');
      assert.equal(await moved(() => peer.updatePlan(plan, 1)), false, 'a refused update moved it');
    } finally {
      await peer.close();
    }
  });
});
