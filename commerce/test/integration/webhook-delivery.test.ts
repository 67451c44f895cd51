import assert from 'node:assert/strict';
import { verifyWebhook, WebhookVerificationError } from '@keygate/webhooks';
import { type Receiver, type Reply, startReceiver } from '../support/receiver.ts';
import { createWebhookHarness, type HarnessOptions, type WebhookHarness } from '../support/webhooks.ts';

const SECONDS = 1000;
const MINUTES = 60 * SECONDS;

interface AttemptJson {
  statusCode: number | null;
  error: string | null;
  response: string | null;
  webhookTimestamp: number;
  durationMs: number | null;
}

describe('webhook delivery to a real receiver', () => {
  let h: WebhookHarness;
  let receiver: Receiver;

  async function setUp(reply?: (n: number) => Reply, options: HarnessOptions = {}) {
    h = await createWebhookHarness(options);
    receiver = await startReceiver((request) => reply?.(request.n) ?? {});
    h.db.sqlite.exec("UPDATE stock SET on_hand = 100, allocated = 0 WHERE product_id = 'prd_00002'");
  }
  afterEach(async () => {
    await h.shutdown();
    await receiver.close();
  });

  /** Makes one stock.updated event (and its deliveries). */
  async function changeStock(onHand: number) {
    const res = await h.put('/v2/stock/KG-00002', { onHand });
    assert.equal(res.status, 200, res.text);
  }

  async function deliveriesOf(endpointId: string) {
    const res = await h.get(`/v2/webhooks/endpoints/${endpointId}/deliveries`);
    assert.equal(res.status, 200, res.text);
    return res.body.data as Array<{
      id: string;
      status: string;
      nextAttemptAt: string | null;
      attempts: AttemptJson[];
    }>;
  }

  const verifyAt = (secrets: string | string[], index: number) => {
    const request = receiver.received[index]!;
    return verifyWebhook(secrets, request.headers, request.body, { now: h.clock() });
  };

  describe('signatures', () => {
    it('sends the envelope with Standard Webhooks headers that verifyWebhook accepts', async () => {
      await setUp();
      const endpoint = await h.createEndpoint({ url: receiver.url, eventTypes: ['stock.updated'] });
      await changeStock(90);
      assert.equal(await h.drain(), 1);
      const [request] = receiver.received;
      assert.ok(request);
      const [event] = h.events('stock.updated');
      assert.deepEqual(request.payload, event);
      assert.equal(request.headers['content-type'], 'application/json');
      assert.match(request.id, /^msg_/);
      assert.equal(request.headers['webhook-timestamp'], String(Math.floor(h.clock().getTime() / 1000)));
      assert.match(String(request.headers['webhook-signature']), /^v1,[A-Za-z0-9+/]{43}=$/);
      assert.deepEqual(verifyAt(endpoint.secret, 0), {
        id: request.id,
        timestamp: Math.floor(h.clock().getTime() / 1000),
        payload: event,
      });
      const [delivery] = await deliveriesOf(endpoint.id);
      assert.equal(delivery?.id, request.id);
      assert.equal(delivery?.status, 'succeeded');
      assert.deepEqual(
        delivery?.attempts.map((a) => [a.statusCode, a.response, a.error]),
        [[200, 'ok', null]],
      );
    });

    it('carries both signatures while a rotated secret overlaps, then only the new one', async () => {
      await setUp();
      const endpoint = await h.createEndpoint({ url: receiver.url });
      const rotated = (
        await h.post(`/v2/webhooks/endpoints/${endpoint.id}:rotate-secret`, { overlapHours: 1 })
      ).body;
      await changeStock(90);
      await h.drain();
      assert.equal(String(receiver.received[0]?.headers['webhook-signature']).split(' ').length, 2);
      for (const secrets of [endpoint.secret, rotated.secret, [rotated.secret, endpoint.secret]]) {
        assert.equal(verifyAt(secrets, 0).id, receiver.received[0]?.id);
      }

      await h.post(`/v2/webhooks/endpoints/${endpoint.id}:close-old-secret`);
      await changeStock(80);
      await h.drain();
      assert.equal(String(receiver.received[1]?.headers['webhook-signature']).split(' ').length, 1);
      assert.equal(verifyAt(rotated.secret, 1).id, receiver.received[1]?.id);
      assert.throws(() => verifyAt(endpoint.secret, 1), WebhookVerificationError);

      const again = (await h.post(`/v2/webhooks/endpoints/${endpoint.id}:rotate-secret`, { overlapHours: 1 }))
        .body;
      h.clock.advance(60 * MINUTES);
      await changeStock(70);
      await h.drain();
      assert.equal(
        String(receiver.received[2]?.headers['webhook-signature']).split(' ').length,
        1,
        'overlap ended',
      );
      assert.equal(verifyAt(again.secret, 2).id, receiver.received[2]?.id);
      assert.throws(() => verifyAt(rotated.secret, 2), WebhookVerificationError);
    });
  });

  describe('retries', () => {
    it('retries after 500 on the schedule (0, 5 s, 5 min) with the same webhook-id, persisting every attempt', async () => {
      await setUp((n) => (n <= 2 ? { status: 500, body: `boom ${n}` } : {}));
      const endpoint = await h.createEndpoint({ url: receiver.url });
      await changeStock(90);
      const t0 = h.clock().getTime();
      assert.equal(await h.drain(), 1);
      let [delivery] = await deliveriesOf(endpoint.id);
      assert.equal(delivery?.status, 'pending');
      assert.equal(delivery?.nextAttemptAt, new Date(t0 + 5 * SECONDS).toISOString());
      h.clock.advance(5 * SECONDS - 1);
      assert.equal(await h.drain(), 0, 'not before the schedule');
      h.clock.advance(1);
      assert.equal(await h.drain(), 1);
      [delivery] = await deliveriesOf(endpoint.id);
      assert.equal(delivery?.nextAttemptAt, new Date(t0 + 5 * SECONDS + 5 * MINUTES).toISOString());
      h.clock.advance(5 * MINUTES);
      assert.equal(await h.drain(), 1);
      [delivery] = await deliveriesOf(endpoint.id);
      assert.equal(delivery?.status, 'succeeded');
      assert.deepEqual(
        delivery?.attempts.map((a) => [a.statusCode, a.response]),
        [
          [500, 'boom 1'],
          [500, 'boom 2'],
          [200, 'ok'],
        ],
      );
      assert.deepEqual(
        new Set(receiver.received.map((r) => r.id)).size,
        1,
        'one webhook-id on every attempt',
      );
      assert.deepEqual(
        receiver.received.map((r) => Number(r.headers['webhook-timestamp'])),
        [t0, t0 + 5 * SECONDS, t0 + 5 * SECONDS + 5 * MINUTES].map((ms) => Math.floor(ms / 1000)),
      );
      for (const request of receiver.received) {
        const sentAt = Number(request.headers['webhook-timestamp']) * 1000;
        assert.equal(
          verifyWebhook(endpoint.secret, request.headers, request.body, { now: sentAt }).id,
          request.id,
        );
      }
    });

    it('retries after a timeout', async () => {
      await setUp((n) => (n === 1 ? { hang: true } : {}), { worker: { timeoutMs: 150 } });
      const endpoint = await h.createEndpoint({ url: receiver.url });
      await changeStock(90);
      await h.drain();
      let [delivery] = await deliveriesOf(endpoint.id);
      assert.equal(delivery?.status, 'pending');
      assert.equal(delivery?.attempts[0]?.statusCode, null);
      assert.match(String(delivery?.attempts[0]?.error), /timeout after 150 ms/);
      assert.ok(Number(delivery?.attempts[0]?.durationMs) >= 140);
      h.clock.advance(5 * SECONDS);
      await h.drain();
      [delivery] = await deliveriesOf(endpoint.id);
      assert.equal(delivery?.status, 'succeeded');
      assert.deepEqual(
        receiver.received.map((r) => r.id),
        [delivery?.id, delivery?.id],
      );
    });

    it('honours Retry-After on 429 when it asks for more than the schedule', async () => {
      await setUp((n) => (n === 1 ? { status: 429, headers: { 'Retry-After': '120' } } : {}));
      const endpoint = await h.createEndpoint({ url: receiver.url });
      await changeStock(90);
      const t0 = h.clock().getTime();
      await h.drain();
      const [delivery] = await deliveriesOf(endpoint.id);
      assert.equal(delivery?.nextAttemptAt, new Date(t0 + 120 * SECONDS).toISOString());
      h.clock.advance(5 * SECONDS);
      assert.equal(await h.drain(), 0, 'the 5 s schedule step is overridden by Retry-After: 120');
      h.clock.advance(115 * SECONDS);
      assert.equal(await h.drain(), 1);
      assert.equal((await deliveriesOf(endpoint.id))[0]?.status, 'succeeded');
    });

    it('honours Retry-After given as an HTTP date', async () => {
      await setUp();
      const at = new Date(h.clock().getTime() + 10 * MINUTES).toUTCString();
      receiver.setReply((r) => (r.n === 1 ? { status: 503, headers: { 'Retry-After': at } } : {}));
      const endpoint = await h.createEndpoint({ url: receiver.url });
      await changeStock(90);
      await h.drain();
      assert.equal((await deliveriesOf(endpoint.id))[0]?.nextAttemptAt, new Date(at).toISOString());
    });

    it('marks a delivery failed after the last scheduled attempt and moves on to the next one', async () => {
      await setUp((n) => (n <= 2 ? { status: 500 } : {}), { worker: { scheduleMs: [0, 1000] } });
      const endpoint = await h.createEndpoint({ url: receiver.url });
      await changeStock(90);
      await changeStock(80);
      await h.drain();
      h.clock.advance(1000);
      await h.drain();
      const [second, first] = await deliveriesOf(endpoint.id);
      assert.deepEqual([first?.status, first?.attempts.length, first?.nextAttemptAt], ['failed', 2, null]);
      assert.deepEqual([second?.status, second?.attempts.length], ['succeeded', 1]);
      assert.deepEqual(
        receiver.received.map((r) => r.id),
        [first?.id, first?.id, second?.id],
      );
    });
  });

  describe('410 Gone', () => {
    it('fails the delivery, disables the endpoint and holds later deliveries until it is enabled again', async () => {
      await setUp((n) => (n === 1 ? { status: 410 } : {}));
      const endpoint = await h.createEndpoint({ url: receiver.url });
      await changeStock(90);
      await h.drain();
      const gone = (await h.get(`/v2/webhooks/endpoints/${endpoint.id}`)).body;
      assert.deepEqual([gone.enabled, gone.disabledReason], [false, 'gone']);
      assert.equal((await deliveriesOf(endpoint.id))[0]?.status, 'failed');
      await changeStock(80);
      h.clock.advance(60 * MINUTES);
      assert.equal(await h.drain(), 0);
      assert.equal(receiver.received.length, 1);
      assert.equal((await deliveriesOf(endpoint.id)).length, 1, 'no deliveries for a disabled endpoint');
      await h.patch(`/v2/webhooks/endpoints/${endpoint.id}`, { enabled: true });
      await changeStock(70);
      assert.equal(await h.drain(), 1);
      assert.equal(receiver.received.length, 2);
    });
  });

  describe('ordering', () => {
    it('delivers an endpoint’s events in creation order: a failing one blocks the later ones', async () => {
      await setUp();
      const slow = await h.createEndpoint({ url: receiver.url });
      const healthyReceiver = await startReceiver();
      try {
        receiver.setReply((r) => (r.n === 1 ? { status: 500 } : {}));
        const healthy = await h.createEndpoint({ url: healthyReceiver.url });
        await changeStock(90);
        await changeStock(0);
        await changeStock(5);
        const events = h.eventTypes();
        assert.deepEqual(events, [
          'stock.updated',
          'stock.updated',
          'stock.out_of_stock',
          'stock.updated',
          'stock.back_in_stock',
        ]);
        await h.drain();
        assert.equal(receiver.received.length, 1, 'only the head of the failing endpoint was tried');
        assert.deepEqual(
          healthyReceiver.received.map((r) => r.payload.type),
          events,
          'another endpoint is not held up',
        );
        h.clock.advance(5 * SECONDS);
        await h.drain();
        const ids = receiver.received.map((r) => r.payload.id);
        assert.deepEqual(
          ids.slice(1),
          healthyReceiver.received.map((r) => r.payload.id),
        );
        assert.equal(ids[0], ids[1], 'the failed event came again first');
        assert.deepEqual(
          (await deliveriesOf(slow.id)).map((d) => d.status),
          ['succeeded', 'succeeded', 'succeeded', 'succeeded', 'succeeded'],
        );
        assert.equal((await deliveriesOf(healthy.id)).length, 5);
      } finally {
        await healthyReceiver.close();
      }
    });
  });

  describe('idempotency', () => {
    it('a resend sends the same webhook-id and body again, freshly signed', async () => {
      await setUp();
      const endpoint = await h.createEndpoint({ url: receiver.url });
      await changeStock(90);
      await h.drain();
      const [delivery] = await deliveriesOf(endpoint.id);
      h.clock.advance(10 * MINUTES);
      const resent = await h.post(`/v2/webhooks/deliveries/${delivery?.id}:resend`);
      assert.equal(resent.status, 202, resent.text);
      assert.deepEqual([resent.body.id, resent.body.status], [delivery?.id, 'pending']);
      await h.drain();
      const [first, second] = receiver.received;
      assert.equal(second?.id, first?.id);
      assert.equal(second?.body, first?.body);
      assert.notEqual(second?.headers['webhook-timestamp'], first?.headers['webhook-timestamp']);
      assert.ok(verifyAt(endpoint.secret, 1));
      const [after] = await deliveriesOf(endpoint.id);
      assert.deepEqual([after?.status, after?.attempts.length], ['succeeded', 2]);
    });

    it('refuses to resend a delivery in flight (409) or one of a disabled endpoint (409)', async () => {
      await setUp((n) => (n === 1 ? { hang: true } : {}), { worker: { timeoutMs: 5000 } });
      const endpoint = await h.createEndpoint({ url: receiver.url });
      await changeStock(90);
      const running = h.drain();
      const [delivery] = await deliveriesOf(endpoint.id);
      assert.equal(delivery?.status, 'delivering');
      const inFlight = await h.post(`/v2/webhooks/deliveries/${delivery?.id}:resend`);
      assert.equal(inFlight.status, 409);
      assert.equal(inFlight.body.code, 'DELIVERY_IN_FLIGHT');
      await h.worker.stop();
      await running;
      await h.patch(`/v2/webhooks/endpoints/${endpoint.id}`, { enabled: false });
      const disabled = await h.post(`/v2/webhooks/deliveries/${delivery?.id}:resend`);
      assert.equal(disabled.body.code, 'ENDPOINT_DISABLED');
    });
  });

  describe('the test event', () => {
    it('delivers webhook.test, signed, to the one endpoint', async () => {
      await setUp();
      const endpoint = await h.createEndpoint({ url: receiver.url, eventTypes: ['order.created'] });
      await h.post(`/v2/webhooks/endpoints/${endpoint.id}:test`);
      await h.drain();
      const verified = verifyAt(endpoint.secret, 0);
      assert.deepEqual((verified.payload as { type: string; data: unknown }).type, 'webhook.test');
      assert.deepEqual((verified.payload as { data: unknown }).data, {
        endpointId: endpoint.id,
        message: 'A test event from keygate commerce; no data changed.',
      });
    });
  });
});
