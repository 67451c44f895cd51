import assert from 'node:assert/strict';
import type { ApiKey, SecretRecord } from '../src/model/model.ts';
import type { KeyStore } from '../src/store/store.ts';
import { iso, makeActivity, makeKey, makeSecret, T0, update } from './store.contract.ts';

const DAY = 86_400_000;
const LEADS = [7, 1];

/** Creates a key (no expiry unless given) with one secret shaped by `secret`; returns both. */
async function seed(
  store: KeyStore,
  key: Partial<ApiKey> = {},
  secret: Partial<SecretRecord> = {},
): Promise<{ key: ApiKey; secret: SecretRecord }> {
  const created = makeKey({ expiresAt: null, ...key });
  const first = makeSecret(created.id, { createdAt: created.createdAt, ...secret });
  const ok = await store.commitChange({
    key: created,
    expectedVersion: null,
    secrets: [first],
    activity: makeActivity(created),
  });
  assert.equal(ok, true);
  return { key: created, secret: first };
}

/**
 * `listSweepCandidates`, as every KeyStore backend must answer it. T0 is 2025-03-01T10:00Z, so a
 * key whose last valid day is 2025-03-07 ends 2025-03-08T00:00Z, inside a 7-day lead; 2025-03-08 does not.
 */
export function describeSweepCandidatesContract(current: () => KeyStore): void {
  describe('sweep candidates', () => {
    let store: KeyStore;
    beforeEach(() => {
      store = current();
    });

    it('lists keys with an open secret whose overlap ended, not those still open or already closed', async () => {
      const due = await seed(store, {}, { closesAt: iso(-1000) });
      const later = await seed(store, {}, { closesAt: iso(60_000) });
      await seed(store, {}, { closesAt: iso(-1000), closedAt: iso(-1000), closedReason: 'manual' });
      await seed(store);
      assert.deepEqual(await store.listSweepCandidates(T0, LEADS), [due.key.id]);
      assert.deepEqual(
        await store.listSweepCandidates(T0 + 60_000, LEADS),
        [due.key.id, later.key.id].sort(),
      );
    });

    it('lists active keys whose expiry end is within the lead, not expired, revoked or later ones', async () => {
      const lastDay = await seed(store, { expiresAt: '2025-03-01' });
      const inside = await seed(store, { expiresAt: '2025-03-07' });
      await seed(store, { expiresAt: '2025-03-08' });
      await seed(store, { expiresAt: '2025-02-28' });
      await seed(store, {
        expiresAt: '2025-03-05',
        status: 'revoked',
        revokedAt: iso(0),
      });
      assert.deepEqual(await store.listSweepCandidates(T0, LEADS), [lastDay.key.id, inside.key.id].sort());
      assert.deepEqual(await store.listSweepCandidates(T0, [1]), [lastDay.key.id]);
      assert.deepEqual(await store.listSweepCandidates(T0, []), []);
      assert.deepEqual(await store.listSweepCandidates(T0 + 14 * DAY, LEADS), []);
    });

    it('leaves out a key reminded for every lead it entered, until it enters a lead it was not reminded for', async () => {
      const reminded = await seed(store, { expiresAt: '2025-03-05', remindersSent: [7] });
      await seed(store, { expiresAt: '2025-03-01', remindersSent: [7, 1] });
      const skipped = await seed(store, { expiresAt: '2025-03-01', remindersSent: [7] });
      assert.deepEqual(await store.listSweepCandidates(T0, LEADS), [skipped.key.id]);
      const lastDay = Date.parse('2025-03-05T12:00:00.000Z');
      assert.deepEqual(await store.listSweepCandidates(lastDay, LEADS), [reminded.key.id]);
      assert.deepEqual(await store.listSweepCandidates(lastDay, [7]), []);
    });

    it('follows every commitChange: closing, rotating, revoking and changing the expiry', async () => {
      const closing = await seed(store, {}, { closesAt: iso(-1000) });
      const rotating = await seed(store);
      const revoking = await seed(store, { expiresAt: '2025-03-05' });
      const extending = await seed(store, { expiresAt: '2025-03-05' });
      const shortening = await seed(store, { expiresAt: '2025-12-31' });
      const closed = {
        ...closing.secret,
        closedAt: closing.secret.closesAt,
        closedReason: 'overlap_ended' as const,
      };
      const old = { ...rotating.secret, closesAt: iso(-500) };
      const fresh = makeSecret(rotating.key.id, { createdAt: iso(1000) });
      const changes = [
        update(closing.key, {}, [closed]),
        update(rotating.key, { prefix: fresh.prefix }, [fresh, old]),
        update(revoking.key, { status: 'revoked', revokedAt: iso(60_000) }),
        update(extending.key, { expiresAt: null }),
        update(shortening.key, { expiresAt: '2025-03-03' }),
      ];
      for (const change of changes) assert.equal(await store.commitChange(change), true);
      assert.deepEqual(
        await store.listSweepCandidates(T0, LEADS),
        [rotating.key.id, shortening.key.id].sort(),
      );
    });

    it('keeps a key listed after a change that does not carry its due secret', async () => {
      const { key } = await seed(store, {}, { closesAt: iso(-1000) });
      assert.equal(await store.commitChange(update(key, { name: 'renamed' })), true);
      assert.deepEqual(await store.listSweepCandidates(T0, LEADS), [key.id]);
    });
  });
}
