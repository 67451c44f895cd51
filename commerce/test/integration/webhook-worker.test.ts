import assert from 'node:assert/strict';
import { pino } from 'pino';
import request from 'supertest';
import { sendWebhookOverHttp } from '../../src/webhooks/http-sender.ts';
import { createSqliteDeliveryStore } from '../../src/webhooks/sqlite-delivery-store.ts';
import type { LookupHost } from '../../src/webhooks/url-policy.ts';
import { createWebhookWorker } from '../../src/webhooks/worker.ts';
import { type Receiver, startReceiver, waitFor } from '../support/receiver.ts';
import {
  createWebhookHarness,
  DEFAULT_SCHEDULE_MS,
  type HarnessOptions,
  type WebhookHarness,
} from '../support/webhooks.ts';

const MINUTES = 60_000;

describe('the webhook worker', () => {
  let h: WebhookHarness;
  let receiver: Receiver;

  async function setUp(options: HarnessOptions = {}) {
    h = await createWebhookHarness(options);
    receiver = await startReceiver();
    h.db.sqlite.exec("UPDATE stock SET on_hand = 100, allocated = 0 WHERE product_id = 'prd_00002'");
  }
  afterEach(async () => {
    await h.shutdown();
    await receiver.close();
  });

  const changeStock = (onHand: number) => h.put('/v2/stock/KG-00002', { onHand });
  const deliveryRows = () =>
    h.db.sqlite
      .prepare('SELECT id, status, attempt_count AS attempts FROM webhook_deliveries ORDER BY seq')
      .all() as Array<{
      id: string;
      status: string;
      attempts: number;
    }>;
  const attemptRows = () =>
    h.db.sqlite
      .prepare(
        'SELECT delivery_id AS deliveryId, status_code AS statusCode, error FROM webhook_attempts ORDER BY id',
      )
      .all() as Array<{
      deliveryId: string;
      statusCode: number | null;
      error: string | null;
    }>;

  /** A second worker on the same database, as a restarted process would build it. */
  function restartedWorker(options: HarnessOptions['worker'] = {}, store = createSqliteDeliveryStore(h.db)) {
    return createWebhookWorker({
      store,
      send: sendWebhookOverHttp,
      lookupHost: async () => [{ address: '127.0.0.1', family: 4 }],
      logger: pino({ level: 'silent' }),
      clock: h.clock,
      options: {
        scheduleMs: DEFAULT_SCHEDULE_MS,
        jitterRatio: 0,
        disableAfterMs: 5 * 24 * 60 * MINUTES,
        maxRetryAfterMs: 24 * 60 * MINUTES,
        timeoutMs: 2000,
        concurrency: 4,
        pollIntervalMs: 20,
        allowPrivateAddresses: true,
        ...options,
      },
    });
  }

  describe('started, on real timers', () => {
    it('delivers as soon as a change commits, without being driven', async () => {
      await setUp();
      await h.createEndpoint({ url: receiver.url });
      h.worker.start();
      await changeStock(90);
      await waitFor(() => receiver.received.length === 1, 'the delivery');
      await waitFor(() => deliveryRows()[0]?.status === 'succeeded', 'the stored success');
    });
  });

  describe('when recording an attempt fails', () => {
    it('puts the delivery back to pending and delivers it on the next run', async () => {
      await setUp();
      await h.createEndpoint({ url: receiver.url });
      await changeStock(90);
      const store = createSqliteDeliveryStore(h.db);
      let failures = 1;
      const worker = createWebhookWorker({
        store: {
          ...store,
          completeAttempt(...args) {
            if (failures-- > 0) throw new Error('database is locked');
            store.completeAttempt(...args);
          },
        },
        send: sendWebhookOverHttp,
        lookupHost: async () => [{ address: '127.0.0.1', family: 4 }],
        logger: pino({ level: 'silent' }),
        clock: h.clock,
        options: {
          scheduleMs: DEFAULT_SCHEDULE_MS,
          jitterRatio: 0,
          disableAfterMs: 5 * 24 * 60 * MINUTES,
          maxRetryAfterMs: 24 * 60 * MINUTES,
          timeoutMs: 2000,
          concurrency: 4,
          pollIntervalMs: 20,
          allowPrivateAddresses: true,
        },
      });
      assert.equal(await worker.runOnce(), 1);
      assert.equal(deliveryRows()[0]?.status, 'pending', 'not stuck in delivering');
      assert.equal(await worker.runOnce(), 1);
      assert.equal(deliveryRows()[0]?.status, 'succeeded');
      assert.equal(receiver.received.length, 2, 'at least once: the first send is repeated');
      await worker.stop();
    });
  });

  describe('when recording an attempt and putting the delivery back both fail', () => {
    /** timeoutMs (2000) + the 30 s margin: a claim this old, not in flight here, counts as abandoned. */
    const STALE_AFTER_MS = 32_000;
    const openAttempts = () =>
      h.db.sqlite
        .prepare('SELECT id, delivery_id AS deliveryId FROM webhook_attempts WHERE finished_at IS NULL')
        .all();

    /** The SQLite store, except that recording and releasing the next `n` attempts throw. */
    function storeFailingTimes(n: number) {
      const store = createSqliteDeliveryStore(h.db);
      let completeFailures = n;
      let releaseFailures = n;
      return {
        ...store,
        completeAttempt(...args: Parameters<typeof store.completeAttempt>) {
          if (completeFailures-- > 0) throw new Error('database is locked');
          store.completeAttempt(...args);
        },
        releaseAttempt(...args: Parameters<typeof store.releaseAttempt>) {
          if (releaseFailures-- > 0) throw new Error('database is locked');
          store.releaseAttempt(...args);
        },
      };
    }

    it('requeues a claim older than the bound on a later poll, same webhook-id; a younger one is untouched', async () => {
      await setUp();
      await h.createEndpoint({ url: receiver.url });
      await changeStock(90);
      const worker = restartedWorker({}, storeFailingTimes(2));
      assert.equal(await worker.runOnce(), 1);
      const [stuck] = deliveryRows();
      assert.ok(stuck);
      assert.equal(stuck.status, 'delivering', 'left delivering: both writes failed');
      h.clock.advance(20_000);
      const b = await h.createEndpoint({ url: receiver.url });
      await changeStock(80);
      assert.equal(await worker.runOnce(), 1, 'only b: a is blocked by its stuck head');
      const young = h.db.sqlite
        .prepare("SELECT id FROM webhook_deliveries WHERE endpoint_id = ? AND status = 'delivering'")
        .get(b.id) as { id: string };
      const youngAttempts = openAttempts().filter(
        (r) => (r as { deliveryId: string }).deliveryId === young.id,
      );
      assert.equal(youngAttempts.length, 1);

      h.clock.advance(STALE_AFTER_MS - 20_000);
      assert.equal(await worker.runOnce(), 0, 'exactly at the bound: not yet stale');
      assert.equal(deliveryRows()[0]?.status, 'delivering');

      h.clock.advance(1);
      assert.equal(await worker.runOnce(), 1);
      const byId = new Map(deliveryRows().map((r) => [r.id, r]));
      assert.equal(byId.get(stuck.id)?.status, 'succeeded');
      assert.equal(byId.get(stuck.id)?.attempts, 2);
      assert.deepEqual(
        receiver.received.map((r) => r.id),
        [stuck.id, young.id, stuck.id],
        'redelivered with the same webhook-id',
      );
      assert.deepEqual(byId.get(young.id), { id: young.id, status: 'delivering', attempts: 1 });
      assert.deepEqual(
        openAttempts().filter((r) => (r as { deliveryId: string }).deliveryId === young.id),
        youngAttempts,
        'the younger claim is not touched',
      );
      await worker.stop();
    });

    it('never requeues a delivery in flight in this process, however old its claim', async () => {
      await setUp();
      receiver.setReply(() => ({ hang: true }));
      await h.createEndpoint({ url: receiver.url });
      await changeStock(90);
      const worker = restartedWorker();
      const running = worker.runOnce();
      await waitFor(() => receiver.received.length === 1, 'the first request');
      h.clock.advance(10 * MINUTES);
      assert.equal(await worker.runOnce(), 0, 'not requeued, so not claimed a second time');
      assert.equal(deliveryRows()[0]?.status, 'delivering');
      await worker.stop();
      await running;
      assert.equal(receiver.received.length, 1);
    });
  });

  describe('after a crash mid-delivery', () => {
    it('retries the interrupted delivery with the same webhook-id, keeping the interrupted attempt', async () => {
      await setUp();
      await h.createEndpoint({ url: receiver.url });
      await changeStock(90);
      // A process claims the delivery (status delivering, attempt row open) and dies before answering.
      const [claim] = createSqliteDeliveryStore(h.db).claimDue(h.clock(), 1);
      assert.ok(claim);
      assert.deepEqual(deliveryRows(), [{ id: claim.deliveryId, status: 'delivering', attempts: 1 }]);
      const next = restartedWorker();
      next.start();
      try {
        await waitFor(() => receiver.received.length === 1, 'the redelivery');
        await waitFor(() => deliveryRows()[0]?.status === 'succeeded', 'the stored success');
      } finally {
        await next.stop();
      }
      assert.equal(receiver.received[0]?.id, claim.deliveryId);
      assert.deepEqual(attemptRows(), [
        {
          deliveryId: claim.deliveryId,
          statusCode: null,
          error: 'interrupted: the process stopped during this attempt',
        },
        { deliveryId: claim.deliveryId, statusCode: 200, error: null },
      ]);
    });
  });

  describe('stop()', () => {
    it('aborts attempts in flight and leaves them pending for the next start, same webhook-id', async () => {
      await setUp();
      receiver.setReply((r) => (r.n === 1 ? { hang: true } : {}));
      await h.createEndpoint({ url: receiver.url });
      await changeStock(90);
      const running = h.drain();
      await waitFor(() => receiver.received.length === 1, 'the first request');
      await h.worker.stop();
      await running;
      const [row] = deliveryRows();
      assert.equal(row?.status, 'pending');
      assert.equal(attemptRows()[0]?.error, 'interrupted: the worker stopped during this attempt');
      const next = restartedWorker();
      assert.equal(await next.runOnce(), 1);
      assert.deepEqual(
        receiver.received.map((r) => r.id),
        [row?.id, row?.id],
      );
      assert.equal(deliveryRows()[0]?.status, 'succeeded');
    });
  });

  describe('GET /metrics', () => {
    it('shows the open deliveries and the disabled endpoints', async () => {
      await setUp();
      await h.createEndpoint({ url: receiver.url });
      await h.createEndpoint({ url: receiver.url, enabled: false });
      await changeStock(90);
      await changeStock(80);
      const res = await request(h.app).get('/metrics');
      assert.match(
        res.text,
        /webhook_deliveries_open\{status="pending",service="commerce",environment="live"\} 2/,
      );
      assert.match(res.text, /webhook_deliveries_open\{status="delivering",[^}]*\} 0/);
      assert.match(res.text, /webhook_endpoints_disabled\{[^}]*\} 1/);
    });

    it('shows how long a due delivery waited for the worker, not how long a retry waits', async () => {
      await setUp();
      const lag = async () => {
        const res = await request(h.app).get('/metrics');
        const found = /^webhook_delivery_lag_seconds\{[^}]*\} (\S+)$/m.exec(res.text);
        assert.ok(found, res.text);
        return Number(found[1]);
      };
      receiver.setReply(() => ({ status: 500 }));
      await h.createEndpoint({ url: receiver.url });
      await changeStock(90);
      assert.equal(await lag(), 0, 'due just now');
      h.clock.advance(90_000);
      assert.equal(await lag(), 90, 'due for 90 s, no worker ran');
      assert.equal(await h.worker.runOnce(), 1);
      assert.equal(deliveryRows()[0]?.status, 'pending', 'the receiver failed: a retry is scheduled');
      assert.equal(await lag(), 0, 'waiting for its retry is not late');
      const retryInMs = DEFAULT_SCHEDULE_MS[1] as number;
      h.clock.advance(retryInMs + 30_000);
      assert.equal(await lag(), 30);
    });
  });

  describe('concurrency', () => {
    it('keeps at most `concurrency` attempts in flight, one per endpoint', async () => {
      await setUp({ worker: { concurrency: 2 } });
      receiver.setReply(() => ({ hang: true }));
      for (let i = 0; i < 3; i++) await h.createEndpoint({ url: `${receiver.url}/${i}` });
      await changeStock(90);
      await changeStock(80);
      const running = h.worker.runOnce();
      const statuses = deliveryRows().map((d) => d.status);
      assert.equal(statuses.filter((s) => s === 'delivering').length, 2, statuses.join());
      await h.worker.stop();
      await running;
    });
  });

  describe('address checks at delivery time', () => {
    it('refuses an endpoint whose name now resolves to a private address (DNS rebinding)', async () => {
      let answer = '93.184.216.34';
      const lookupHost: LookupHost = async () => [{ address: answer, family: 4 }];
      await setUp({ allowPrivateAddresses: false, lookupHost });
      const port = new URL(receiver.url).port;
      await h.createEndpoint({ url: `http://rebind.example:${port}/hooks` });
      answer = '127.0.0.1';
      await changeStock(90);
      assert.equal(await h.drain(), 1);
      assert.equal(receiver.received.length, 0, 'the receiver on 127.0.0.1 was never reached');
      const [attempt] = attemptRows();
      assert.equal(attempt?.statusCode, null);
      assert.match(
        String(attempt?.error),
        /^refused: the host is a loopback, private or otherwise non-public address$/,
      );
      assert.doesNotMatch(String(attempt?.error), /127\.0\.0\.1/, 'what the name resolves to is not echoed');
      assert.equal(deliveryRows()[0]?.status, 'pending', 'a refusal is a failed attempt, retried later');
    });

    it('connects to the address it checked, not to whatever the system resolver says', async () => {
      const lookupHost: LookupHost = async (host) => {
        if (host !== 'receiver.test') throw new Error(`unexpected lookup of ${host}`);
        return [{ address: '127.0.0.1', family: 4 }];
      };
      await setUp({ lookupHost });
      const port = new URL(receiver.url).port;
      await h.createEndpoint({ url: `http://receiver.test:${port}/hooks` });
      await changeStock(90);
      await h.drain();
      assert.equal(receiver.received.length, 1);
      assert.equal(receiver.received[0]?.headers.host, `receiver.test:${port}`);
    });
  });

  describe('responses', () => {
    it('keeps at most 1 KiB of a response body and says it was truncated', async () => {
      await setUp();
      receiver.setReply(() => ({ status: 500, body: 'x'.repeat(5000) }));
      const endpoint = await h.createEndpoint({ url: receiver.url });
      await changeStock(90);
      await h.drain();
      const [delivery] = (await h.get(`/v2/webhooks/endpoints/${endpoint.id}/deliveries`)).body.data;
      const [attempt] = delivery.attempts;
      assert.equal(attempt.statusCode, 500);
      assert.equal(attempt.response, 'x'.repeat(1024));
      assert.equal(attempt.responseTruncated, true);
    });
  });

  describe('an endpoint failing for the whole failure period', () => {
    it('is disabled (failing), its failure run starting at the first failed attempt', async () => {
      await setUp({ worker: { disableAfterMs: 10 * MINUTES } });
      receiver.setReply(() => ({ status: 500 }));
      const endpoint = await h.createEndpoint({ url: receiver.url });
      await changeStock(90);
      const firstFailure = h.clock().toISOString();
      await h.drain();
      for (const step of [5_000, 5 * MINUTES]) {
        h.clock.advance(step);
        await h.drain();
      }
      let state = (await h.get(`/v2/webhooks/endpoints/${endpoint.id}`)).body;
      assert.deepEqual(
        [state.enabled, state.failingSince],
        [true, firstFailure],
        'not yet: 5 min 5 s of failures',
      );
      h.clock.advance(30 * MINUTES);
      await h.drain();
      state = (await h.get(`/v2/webhooks/endpoints/${endpoint.id}`)).body;
      assert.deepEqual(
        [state.enabled, state.disabledReason, state.failingSince],
        [false, 'failing', firstFailure],
      );
      assert.equal(receiver.received.length, 4);
      const enabled = (await h.patch(`/v2/webhooks/endpoints/${endpoint.id}`, { enabled: true })).body;
      assert.deepEqual([enabled.enabled, enabled.failingSince], [true, null]);
    });

    it('a success ends the failure run', async () => {
      await setUp();
      receiver.setReply((r) => (r.n === 1 ? { status: 500 } : {}));
      const endpoint = await h.createEndpoint({ url: receiver.url });
      await changeStock(90);
      await h.drain();
      assert.notEqual((await h.get(`/v2/webhooks/endpoints/${endpoint.id}`)).body.failingSince, null);
      h.clock.advance(5_000);
      await h.drain();
      assert.equal((await h.get(`/v2/webhooks/endpoints/${endpoint.id}`)).body.failingSince, null);
    });
  });
});
