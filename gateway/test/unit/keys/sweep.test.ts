import assert from 'node:assert/strict';
import { startSweeper } from '../../../src/keys/sweeper.ts';
import { ADMIN, createHarness, DAY, FROM_IP, type Harness, HOUR } from './harness.ts';

describe('keyService.sweep', () => {
  let h: Harness;
  beforeEach(() => {
    h = createHarness();
  });
  afterEach(() => h.cleanup());

  describe('with a rotation whose overlap ended', () => {
    it('closes the old secret at its closesAt and logs key.secret_closed once', async () => {
      const { key } = await h.adminCreate({});
      const rotated = await h.service.rotateKey(ADMIN, key.id, { overlapDays: 1 }, FROM_IP);
      const old = rotated.key.rotation.secrets[1]!;
      assert.deepEqual(await h.service.sweep(h.clock() + DAY - 1), { secretsClosed: 0, remindersWritten: 0 });
      h.clock.advance(DAY + HOUR);
      assert.deepEqual(await h.service.sweep(), { secretsClosed: 1, remindersWritten: 0 });
      assert.deepEqual(await h.service.sweep(), { secretsClosed: 0, remindersWritten: 0 });
      const view = await h.service.getKey(ADMIN, key.id);
      const closed = view.rotation.secrets.find((s) => s.id === old.id);
      assert.equal(closed?.closedAt, old.closesAt);
      assert.equal(closed?.closedReason, 'overlap_ended');
      const { items } = await h.service.getActivity(ADMIN, key.id, { action: 'key.secret_closed' });
      assert.equal(items.length, 1);
      assert.deepEqual(items[0]?.actor, { type: 'system', id: 'keygate' });
      assert.equal(items[0]?.sourceIp, null);
      assert.deepEqual(items[0]?.details, { secretId: old.id, reason: 'overlap_ended' });
    });

    it('writes the entry once when two instances sweep the same store', async () => {
      const { key } = await h.adminCreate({});
      await h.service.rotateKey(ADMIN, key.id, { overlapDays: 1 }, FROM_IP);
      h.clock.advance(2 * DAY);
      const peer = h.openPeerService();
      const results = await Promise.all([h.service.sweep(), peer.service.sweep()]);
      assert.equal(results[0].secretsClosed + results[1].secretsClosed, 1);
      const { items } = await h.service.getActivity(ADMIN, key.id, { action: 'key.secret_closed' });
      assert.equal(items.length, 1);
    });
  });

  describe('with keys approaching expiry', () => {
    it('writes one reminder per lead time as each window is entered', async () => {
      // now 2025-03-01T12:00Z; valid through 2025-03-20 → ends 2025-03-21T00:00Z.
      const { key } = await h.adminCreate({ expiresAt: '2025-03-20' });
      const reminders = async () =>
        (await h.service.getActivity(ADMIN, key.id, { action: 'key.expiry_reminder' })).items.map(
          (e) => e.details,
        );
      await h.service.sweep();
      assert.deepEqual(await reminders(), []);
      h.clock.set('2025-03-14T00:00:00.000Z');
      assert.equal((await h.service.sweep()).remindersWritten, 1);
      assert.equal((await h.service.sweep()).remindersWritten, 0);
      assert.deepEqual(await reminders(), [{ leadDays: 7, daysLeft: 7, expiresAt: '2025-03-20' }]);
      h.clock.set('2025-03-20T08:00:00.000Z');
      await h.service.sweep();
      await h.service.sweep();
      assert.deepEqual(await reminders(), [
        { leadDays: 1, daysLeft: 1, expiresAt: '2025-03-20' },
        { leadDays: 7, daysLeft: 7, expiresAt: '2025-03-20' },
      ]);
      assert.deepEqual((await h.store.getKey(key.id))?.remindersSent, [7, 1]);
    });

    it('writes one reminder per lead time when several windows were entered at once', async () => {
      const { key } = await h.adminCreate({ expiresAt: '2025-03-01' });
      assert.equal((await h.service.sweep()).remindersWritten, 2);
      const { items } = await h.service.getActivity(ADMIN, key.id, { action: 'key.expiry_reminder' });
      assert.deepEqual(
        items.map((e) => e.details).sort((a, b) => Number(b.leadDays) - Number(a.leadDays)),
        [
          { leadDays: 7, daysLeft: 1, expiresAt: '2025-03-01' },
          { leadDays: 1, daysLeft: 1, expiresAt: '2025-03-01' },
        ],
      );
      assert.deepEqual((await h.store.getKey(key.id))?.remindersSent, [7, 1]);
      assert.equal((await h.service.sweep()).remindersWritten, 0);
    });

    it('reminds nothing for revoked, expired or non-expiring keys and uses configured lead times', async () => {
      await h.cleanup();
      h = createHarness({ expiryReminderDays: [3] });
      const revoked = (await h.adminCreate({ expiresAt: '2025-03-02' })).key;
      await h.service.revokeKey(ADMIN, revoked.id, FROM_IP);
      await h.adminCreate({});
      await h.adminCreate({ expiresAt: '2025-03-01' });
      const later = (await h.adminCreate({ expiresAt: '2025-03-05' })).key;
      assert.equal((await h.service.sweep(Date.parse('2025-03-02T00:00:00.000Z'))).remindersWritten, 0);
      h.clock.set('2025-03-03T00:00:00.000Z');
      assert.equal((await h.service.sweep()).remindersWritten, 1);
      const { items } = await h.service.getActivity(ADMIN, later.id, { action: 'key.expiry_reminder' });
      assert.equal(items[0]?.details.leadDays, 3);
    });
  });
});

describe('startSweeper', () => {
  function fakeTimers() {
    const state = { callback: null as null | (() => void), ms: 0, cleared: false };
    return {
      state,
      timers: {
        setInterval(callback: () => void, ms: number) {
          state.callback = callback;
          state.ms = ms;
          return 1;
        },
        clearInterval() {
          state.cleared = true;
        },
      },
    };
  }

  it('sweeps on every tick, skips a tick while a sweep still runs, reports errors and stops', async () => {
    const { state, timers } = fakeTimers();
    const errors: unknown[] = [];
    let runs = 0;
    let finish: () => void = () => {};
    const stop = startSweeper({
      intervalMs: 30_000,
      timers,
      onError: (error) => errors.push(error),
      sweep: () => {
        runs++;
        if (runs === 2) return Promise.reject(new Error('store down'));
        return new Promise<void>((resolve) => {
          finish = resolve;
        });
      },
    });
    assert.equal(state.ms, 30_000);
    state.callback!();
    state.callback!();
    assert.equal(runs, 1);
    finish();
    await new Promise((resolve) => setImmediate(resolve));
    state.callback!();
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(runs, 2);
    assert.equal((errors[0] as Error).message, 'store down');
    stop();
    assert.equal(state.cleared, true);
  });
});
