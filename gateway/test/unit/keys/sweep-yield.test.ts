import assert from 'node:assert/strict';
import { createKeyService, type KeyService } from '../../../src/keys/key-service.ts';
import { createLocalKeyEvents } from '../../../src/model/events.ts';
import { addSecret, seedKey } from '../../support/keys.ts';
import { createMemoryStore, type MemoryStore } from '../../support/memory-store.ts';
import { createTestClock, fakeHasher } from './harness.ts';

const KEYS = 1_200;

/** Each key expires in 4 days (inside the 7-day lead only) and has a second secret whose overlap ended. */
async function seedSweepableKeys(store: MemoryStore, now: number): Promise<void> {
  for (let i = 0; i < KEYS; i++) {
    const { key } = await seedKey(store, fakeHasher, { expiresAt: '2025-03-05' });
    await addSecret(store, fakeHasher, key, { closesAt: new Date(now - 60_000).toISOString() });
  }
}

/** The activity entries of `action`, as `keyId:detail` strings. */
async function entriesOf(store: MemoryStore, action: string): Promise<string[]> {
  const { items } = await store.listActivity({} as never);
  return items
    .filter((entry) => entry.action === action)
    .map((entry) => `${entry.keyId}:${String(entry.details.secretId ?? entry.details.leadDays)}`);
}

describe('keyService.sweep over many keys', () => {
  let store: MemoryStore;
  let service: KeyService;
  beforeEach(async () => {
    const clock = createTestClock('2025-03-01T12:00:00.000Z');
    store = createMemoryStore();
    service = createKeyService({ store, hasher: fakeHasher, events: createLocalKeyEvents(), clock });
    await seedSweepableKeys(store, clock());
  });

  describe(`with ${KEYS} active keys in a store answering in microtasks`, () => {
    it('lets a setImmediate callback scheduled before the sweep run before it finishes, many times', async () => {
      const order: string[] = [];
      let done = false;
      let turns = 0;
      setImmediate(() => order.push('immediate'));
      const countTurns = () => {
        if (done) return;
        turns++;
        setImmediate(countTurns);
      };
      setImmediate(countTurns);
      const timer = new Promise<void>((resolve) =>
        setTimeout(() => {
          order.push('timer');
          resolve();
        }, 0),
      );
      await service.sweep();
      done = true;
      order.push('swept');
      await timer;
      assert.equal(order.at(-1), 'swept', `order: ${order.join(', ')}`);
      assert.deepEqual([...order].sort(), ['immediate', 'swept', 'timer']);
      assert.ok(turns >= 5, `only ${turns} event-loop turns during the sweep`);
    });

    it('writes each overlap end and each reminder once, and nothing on the next sweep', async () => {
      const result = await service.sweep();
      assert.deepEqual(result, { secretsClosed: KEYS, remindersWritten: KEYS });
      const closed = await entriesOf(store, 'key.secret_closed');
      const reminded = await entriesOf(store, 'key.expiry_reminder');
      assert.equal(closed.length, KEYS);
      assert.equal(new Set(closed).size, KEYS);
      assert.equal(reminded.length, KEYS);
      assert.equal(new Set(reminded).size, KEYS);
      assert.ok(reminded.every((entry) => entry.endsWith(':7')));
      for (const key of store.keys.values()) assert.deepEqual(key.remindersSent, [7]);
      assert.deepEqual(await service.sweep(), { secretsClosed: 0, remindersWritten: 0 });
      assert.equal((await entriesOf(store, 'key.secret_closed')).length, KEYS);
      assert.equal((await entriesOf(store, 'key.expiry_reminder')).length, KEYS);
    });

    it('writes each entry once when two sweeps interleave on the same store', async () => {
      const peer = createKeyService({
        store,
        hasher: fakeHasher,
        events: createLocalKeyEvents(),
        clock: createTestClock('2025-03-01T12:00:00.000Z'),
      });
      const [a, b] = await Promise.all([service.sweep(), peer.sweep()]);
      assert.equal(a.secretsClosed + b.secretsClosed, KEYS);
      assert.equal(a.remindersWritten + b.remindersWritten, KEYS);
      assert.equal(new Set(await entriesOf(store, 'key.secret_closed')).size, KEYS);
      assert.equal((await entriesOf(store, 'key.secret_closed')).length, KEYS);
      assert.equal((await entriesOf(store, 'key.expiry_reminder')).length, KEYS);
    });
  });
});
