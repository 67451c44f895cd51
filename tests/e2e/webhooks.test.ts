import assert from 'node:assert/strict';
import { verifyWebhook } from '@keygate/webhooks';
import { type System, startSystem } from '../support/system.ts';
import { waitUntil } from '../support/traffic.ts';
import { startReceiver } from '../support/webhook-receiver.ts';

describe('webhooks through the gateway', function () {
  this.timeout(60_000);
  let system: System;

  before(async () => {
    system = await startSystem({
      commerceEnv: { KEYGATE_WEBHOOKS_ALLOW_PRIVATE: 'true', COMMERCE_WEBHOOK_POLL_MS: '100' },
    });
  });

  after(async () => {
    await system?.stop();
  });

  it('delivers a signed stock event for a change made with an API key', async () => {
    const receiver = await startReceiver();
    try {
      const key = await system.createKey({ name: 'hooks', env: 'test', scopes: ['webhook:rw', 'stock:rw'] });
      const created = await system.call(key.secret, '/v2/webhooks/endpoints', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ url: receiver.url, eventTypes: ['stock.updated'] }),
      });
      assert.equal(created.status, 201, await created.clone().text());
      const { secret } = (await created.json()) as { secret: string };
      assert.match(secret, /^whsec_/);

      const listed = await system.call(key.secret, '/v2/webhooks/endpoints');
      assert.ok(!(await listed.text()).includes(secret), 'the endpoint secret is shown only on create');

      const put = await system.call(key.secret, '/v2/stock/KG-00001', {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ onHand: 42 }),
      });
      assert.equal(put.status, 200, await put.clone().text());

      await waitUntil('the receiver got the event', () => receiver.received.length > 0);
      const delivery = receiver.received[0];
      assert.ok(delivery, 'the receiver got the event');
      const verified = verifyWebhook(secret, delivery.headers, delivery.body);
      const event = JSON.parse(delivery.body) as {
        type: string;
        environment: string;
        data: { new: { onHand: number } };
      };
      assert.equal(event.type, 'stock.updated');
      assert.equal(event.environment, 'test');
      assert.equal(event.data.new.onHand, 42);
      assert.ok(verified);
      assert.throws(() =>
        verifyWebhook('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', delivery.headers, delivery.body),
      );
    } finally {
      receiver.close();
    }
  });

  it('refuses endpoint management without webhook:rw at the gateway', async () => {
    const key = await system.createKey({ name: 'reader', env: 'test', scopes: ['webhook:r'] });
    const res = await system.call(key.secret, '/v2/webhooks/endpoints', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ url: 'http://127.0.0.1:9/x' }),
    });
    assert.equal(res.status, 403);
    assert.equal(((await res.json()) as { requiredScope: string }).requiredScope, 'webhook:rw');
  });
});
