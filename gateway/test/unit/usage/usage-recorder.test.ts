import assert from 'node:assert/strict';
import { setImmediate as setImmediatePromise } from 'node:timers/promises';
import { runningRecord } from '@keygate/contracts/idempotency';
import { generateToken } from '../../../src/keys/token.ts';
import { LATENCY_BUCKETS_MS } from '../../../src/model/model.ts';
import {
  type CallRecord,
  createUsageRecorder,
  EARLY_FLUSH_LINES,
  isoOf,
  MAX_LOGGED_PATH,
} from '../../../src/usage/usage-recorder.ts';
import { createTestClock } from '../../support/gateway.ts';
import { createMemoryStore } from '../../support/memory-store.ts';

const MINUTE = Date.parse('2026-01-15T12:00:00.000Z');

function call(fields: Partial<CallRecord> = {}): CallRecord {
  return {
    requestId: 'req_1',
    keyId: 'key_1',
    secretId: 'sec_1',
    method: 'GET',
    path: '/v2/catalog/products',
    status: 200,
    latencyMs: 4,
    clientIp: '127.0.0.1',
    atMs: MINUTE + 1_000,
    ...fields,
  };
}

function setup(maxLogLines?: number, apiLog?: boolean) {
  const store = createMemoryStore();
  let dropped = 0;
  const failures: unknown[] = [];
  const recorder = createUsageRecorder({
    store,
    clock: createTestClock(),
    flushIntervalMs: 1_000,
    retentionDays: 14,
    usageRetentionDays: 90,
    maxLogLines,
    apiLog,
    onLogsDropped: (count) => {
      dropped += count;
    },
    onFlushError: (error) => failures.push(error),
  });
  return { store, recorder, dropped: () => dropped, failures };
}

describe('createUsageRecorder', () => {
  it('aggregates per (key, secret, minute) and writes nothing until flushed', async () => {
    const { store, recorder } = setup();
    recorder.record(call({ latencyMs: 0.2 }));
    recorder.record(call({ status: 404, latencyMs: 40, atMs: MINUTE + 59_999 }));
    recorder.record(call({ status: 502, latencyMs: 99_999 }));
    recorder.record(call({ secretId: 'sec_2' }));
    recorder.record(call({ atMs: MINUTE + 60_000 }));
    assert.equal(store.totalCalls(), 0);
    await recorder.flush();
    assert.equal(store.calls.recordUsage, 1);
    assert.equal(store.calls.appendLogs, 1);
    const buckets = store.usage[0]!;
    assert.equal(buckets.length, 3);
    const main = buckets.find((b) => b.secretId === 'sec_1' && b.minute === MINUTE)!;
    assert.equal(main.calls, 3);
    assert.equal(main.errors4xx, 1);
    assert.equal(main.errors5xx, 1);
    assert.equal(main.latencyMsSum, 0.2 + 40 + 99_999);
    assert.equal(main.latencyHistogram.length, LATENCY_BUCKETS_MS.length + 1);
    assert.equal(main.latencyHistogram[0], 1);
    assert.equal(main.latencyHistogram[LATENCY_BUCKETS_MS.indexOf(50)], 1);
    assert.equal(main.latencyHistogram[LATENCY_BUCKETS_MS.length], 1);
    assert.equal(main.lastCallAt, new Date(MINUTE + 59_999).toISOString());
    assert.equal(store.logs.length, 5);
    await recorder.flush();
    assert.equal(store.calls.recordUsage, 1, 'an empty flush writes nothing');
  });

  it('counts the calls of one secret made between two flushes in the second flush, none lost', async () => {
    const { store, recorder } = setup();
    recorder.record(call());
    recorder.record(call());
    await recorder.flush();
    recorder.record(call({ atMs: MINUTE + 2_000 }));
    recorder.record(call({ secretId: 'sec_2' }));
    recorder.record(call({ atMs: MINUTE + 3_000 }));
    await recorder.flush();
    const counts = store.usage.map((flush) =>
      flush.map((bucket) => `${bucket.secretId}:${bucket.calls}`).sort(),
    );
    assert.deepEqual(counts, [['sec_1:2'], ['sec_1:2', 'sec_2:1']]);
    assert.equal(
      store.usage[1]!.find((b) => b.secretId === 'sec_1')!.lastCallAt,
      new Date(MINUTE + 3_000).toISOString(),
    );
  });

  it('with the API log off (bench mode), sums usage as usual and keeps no log line', async () => {
    const { store, recorder } = setup(undefined, false);
    for (let i = 0; i < EARLY_FLUSH_LINES + 1; i++) recorder.record(call({ status: i === 0 ? 500 : 200 }));
    assert.deepEqual(recorder.pending(), { buckets: 1, logs: 0 });
    await recorder.flush();
    assert.equal(store.usage[0]![0]!.calls, EARLY_FLUSH_LINES + 1);
    assert.equal(store.usage[0]![0]!.errors5xx, 1);
    assert.equal(store.logs.length, 0);
    assert.equal(store.calls.appendLogs, undefined, 'the store was never asked to append');
  });

  it('caps logged paths', async () => {
    const { store, recorder } = setup();
    recorder.record(call({ path: `/v2/catalog/products?q=${'x'.repeat(2_000)}` }));
    await recorder.flush();
    assert.equal(store.logs[0]?.path.length, MAX_LOGGED_PATH);
  });

  it('redacts anything that looks like a keygate token in the logged path and query', async () => {
    const { store, recorder } = setup();
    const token = generateToken('live').token;
    const encoded = generateToken('test').token.replaceAll('_', '%5F');
    recorder.record(call({ path: `/v2/catalog/products/${token}?api_key=${token}&other=${encoded}&q=ok` }));
    await recorder.flush();
    const logged = store.logs[0]?.path ?? '';
    assert.equal(
      logged,
      '/v2/catalog/products/kg_live_[redacted]?api_key=kg_live_[redacted]&other=kg_test_[redacted]&q=ok',
    );
  });

  it('drops the oldest log lines beyond its bound and counts them', async () => {
    const { store, recorder, dropped } = setup(3);
    for (let i = 0; i < 5; i++) recorder.record(call({ requestId: `req_${i}` }));
    assert.equal(dropped(), 2);
    await recorder.flush();
    assert.deepEqual(
      store.logs.map((entry) => entry.id),
      ['req_2', 'req_3', 'req_4'],
    );
    assert.equal(store.usage[0]?.[0]?.calls, 5, 'aggregates are never dropped');
  });

  describe(`once started, with ${EARLY_FLUSH_LINES} log lines waiting`, () => {
    function started() {
      const store = createMemoryStore();
      const recorder = createUsageRecorder({
        store,
        clock: createTestClock(),
        flushIntervalMs: 3_600_000,
        retentionDays: 14,
        usageRetentionDays: 90,
        onFlushError: () => {},
      });
      recorder.start();
      return { store, recorder };
    }
    const calls = (from: number, count: number) =>
      Array.from({ length: count }, (_, i) => call({ requestId: `req_${from + i}` }));

    it('writes the log lines alone without waiting for the timer, once per batch', async () => {
      const { store, recorder } = started();
      for (const c of calls(0, EARLY_FLUSH_LINES - 1)) recorder.record(c);
      await setImmediatePromise();
      assert.equal(store.calls.appendLogs ?? 0, 0, 'one line short: nothing written yet');
      for (const c of calls(EARLY_FLUSH_LINES, 3)) recorder.record(c);
      await setImmediatePromise();
      assert.equal(store.calls.appendLogs, 1, 'the last line of the batch started one write, not four');
      assert.equal(store.logs.length, EARLY_FLUSH_LINES + 2);
      assert.equal(store.calls.recordUsage ?? 0, 0, 'usage waits for the timer');
      await recorder.close();
      const counted = store.usage.flat().reduce((sum, bucket) => sum + bucket.calls, 0);
      assert.equal(counted, EARLY_FLUSH_LINES + 2, 'every call counted once');
    });

    it('leaves retries to the timer while the store fails', async () => {
      const { store, recorder } = started();
      store.failing.add('appendLogs');
      for (const c of calls(0, EARLY_FLUSH_LINES)) recorder.record(c);
      await setImmediatePromise();
      const attempts = store.calls.appendLogs;
      assert.equal(attempts, 1);
      for (const c of calls(EARLY_FLUSH_LINES, 500)) recorder.record(c);
      await setImmediatePromise();
      assert.equal(store.calls.appendLogs, attempts, 'no early flush after a failed one');
      store.failing.delete('appendLogs');
      await recorder.close();
      assert.equal(store.logs.length, EARLY_FLUSH_LINES + 500);
    });
  });

  it('keeps what a failed flush could not write and writes it on the next one', async () => {
    const { store, recorder, failures } = setup();
    recorder.record(call());
    store.failing.add('recordUsage');
    await recorder.flush();
    assert.equal(failures.length, 1);
    recorder.record(call({ requestId: 'req_2' }));
    assert.deepEqual(recorder.pending(), { buckets: 2, logs: 2 }, 'the unsent chunk is kept apart');
    store.failing.delete('recordUsage');
    await recorder.flush();
    assert.equal(
      store.usage.flat().reduce((sum, bucket) => sum + bucket.calls, 0),
      2,
    );
    assert.equal(store.logs.length, 2);
  });

  it('keeps retrying through several failed flushes, then writes every call once', async () => {
    const { store, recorder, failures } = setup();
    store.failing.add('recordUsage');
    for (let minute = 0; minute < 3; minute++) {
      recorder.record(call({ requestId: `req_${minute}`, atMs: MINUTE + minute * 60_000 }));
      await recorder.flush();
    }
    assert.equal(failures.length, 3);
    assert.deepEqual(recorder.pending(), { buckets: 3, logs: 3 });
    store.failing.delete('recordUsage');
    await recorder.flush();
    assert.equal(
      store.usage.flat().reduce((sum, bucket) => sum + bucket.calls, 0),
      3,
    );
    assert.equal(store.logs.length, 3);
    assert.deepEqual(recorder.pending(), { buckets: 0, logs: 0 });
  });

  it('bounds the buckets kept while flushes fail, dropping the oldest minutes and counting them', async () => {
    const store = createMemoryStore();
    let dropped = 0;
    const recorder = createUsageRecorder({
      store,
      clock: createTestClock(),
      flushIntervalMs: 1_000,
      retentionDays: 14,
      usageRetentionDays: 90,
      maxBuckets: 2,
      onBucketsDropped: (count) => {
        dropped += count;
      },
    });
    store.failing.add('recordUsage');
    for (let minute = 0; minute < 4; minute++) {
      recorder.record(call({ requestId: `req_${minute}`, atMs: MINUTE + minute * 60_000 }));
      await recorder.flush();
    }
    assert.equal(recorder.pending().buckets, 2);
    assert.equal(dropped, 2);
    store.failing.delete('recordUsage');
    await recorder.flush();
    assert.deepEqual(
      store.usage.flat().map((bucket) => bucket.minute),
      [MINUTE + 2 * 60_000, MINUTE + 3 * 60_000],
    );
  });

  it('retries a chunk that failed after landing under the same id, so 300 calls count 300', async () => {
    const store = createMemoryStore();
    const applied = new Set<string>();
    const ids: string[] = [];
    let failAfterApplying = 1;
    const recorder = createUsageRecorder({
      store: {
        ...store,
        async recordUsage(buckets, flushId) {
          assert.ok(flushId, 'every flushed chunk has an id');
          ids.push(flushId);
          if (applied.has(flushId)) return;
          await store.recordUsage(buckets);
          applied.add(flushId);
          if (buckets.length < 200 && failAfterApplying-- > 0) throw new Error('timed out (but applied)');
        },
      },
      clock: createTestClock(),
      flushIntervalMs: 1_000,
      retentionDays: 14,
      usageRetentionDays: 90,
    });
    for (let n = 0; n < 300; n++) recorder.record(call({ requestId: `req_${n}`, secretId: `sec_${n}` }));
    await recorder.flush();
    assert.equal(recorder.pending().buckets, 100, 'only the chunk in doubt is kept');
    await recorder.flush();
    assert.equal(
      store.usage.flat().reduce((sum, bucket) => sum + bucket.calls, 0),
      300,
    );
    assert.equal(ids.length, 3);
    assert.equal(ids[2], ids[1], 'the retry reuses the chunk id');
    assert.notEqual(ids[0], ids[1]);
    assert.deepEqual(recorder.pending(), { buckets: 0, logs: 0 });
  });

  it('does not count usage twice when only the log append failed', async () => {
    const { store, recorder } = setup();
    recorder.record(call());
    store.failing.add('appendLogs');
    await recorder.flush();
    store.failing.delete('appendLogs');
    await recorder.flush();
    assert.equal(
      store.usage.flat().reduce((sum, bucket) => sum + bucket.calls, 0),
      1,
    );
    assert.equal(store.logs.length, 1);
  });

  it('prunes logs, usage buckets and idempotency records past their retentions and flushes on close', async () => {
    const { store, recorder } = setup();
    const day = 86_400_000;
    const now = Date.parse('2026-01-15T12:00:00.000Z');
    recorder.record(call({ atMs: now - 91 * day }));
    recorder.record(call({ atMs: now - 89 * day, requestId: 'req_2' }));
    await recorder.flush();
    store.logs = [];
    store.logs.push({
      ...store.logs[0]!,
      id: 'old',
      keyId: 'k',
      secretId: 's',
      at: '2025-12-01T00:00:00.000Z',
      method: 'GET',
      path: '/',
      status: 200,
      latencyMs: 1,
      clientIp: '::1',
    });
    const expired = { ...runningRecord('fp', now - 2 * day), expiresAt: now - day };
    await store.swapIdempotency('k', 'old', null, expired, now);
    await store.swapIdempotency('k', 'new', null, runningRecord('fp', now), now);
    assert.deepEqual(await recorder.prune(), { logs: 1, usage: 1, idempotency: 1 });
    assert.notEqual(await store.readIdempotency('k', 'new'), null);
    assert.deepEqual(
      store.usage.flat().map((bucket) => bucket.minute),
      [Math.floor((now - 89 * day) / 60_000) * 60_000],
    );
    recorder.record(call());
    await recorder.close();
    assert.equal(store.logs.length, 1);
  });
});

describe('isoOf', () => {
  it('formats epoch milliseconds as Date#toISOString does, across seconds, minutes and years', () => {
    const starts = [0, Date.parse('2026-12-31T23:59:58.990Z'), Date.parse('2024-02-29T12:00:00.000Z')];
    for (const start of starts) {
      for (let ms = start; ms < start + 2_100; ms += 7) {
        assert.equal(isoOf(ms), new Date(ms).toISOString(), String(ms));
      }
    }
    assert.equal(isoOf(1_000.9), '1970-01-01T00:00:01.000Z', 'a fraction of a millisecond is dropped');
  });
});
