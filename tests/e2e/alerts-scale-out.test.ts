import assert from 'node:assert/strict';
import { openRedisKeyStore } from '../../gateway/src/store/redis/redis-store.ts';
import { setKeyBudget } from '../support/alert-budget.ts';
import { type AlertReceiver, startAlertReceiver } from '../support/alert-receiver.ts';
import { startRedis, type TestRedis } from '../support/redis.ts';
import { json, type System, startSystem } from '../support/system.ts';
import { waitUntil } from '../support/traffic.ts';

/** Two gateway instances sharing Redis: one alert per event, however many instances saw it. */
describe('alerts from two gateway instances sharing Redis', function () {
  this.timeout(120_000);
  let redis: TestRedis;
  let system: System;
  let receiver: AlertReceiver;

  before(async () => {
    redis = await startRedis();
    system = await startSystem({
      gateways: 2,
      redisUrl: redis.url,
      gatewayEnv: { KEYGATE_WEBHOOKS_ALLOW_PRIVATE: 'true', KEYGATE_ALERTS_POLL_MS: '50' },
    });
    receiver = await startAlertReceiver();
  });

  after(async () => {
    await receiver?.close();
    await system?.stop();
    await redis?.stop();
  });

  it('delivers a quota threshold crossed on both instances at once, and each key change, exactly once', async () => {
    const admin = await system.createKey({ name: 'ops', env: 'live', scopes: ['auth:rw', 'article:r'] });
    const created = await system.call(admin.secret, '/v2/auth/alert-endpoints', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ url: receiver.url, eventTypes: ['quota.threshold', 'key.created'] }),
    });
    assert.equal(created.status, 201, await created.clone().text());
    const endpoint = await json<{ id: string; secret: string }>(created);
    receiver.secret = endpoint.secret;

    const caller = await system.createKey({ name: 'shared', env: 'live', scopes: ['article:r'] });
    const store = await openRedisKeyStore(redis.url, { keyPrefix: 'keygate:' });
    try {
      await setKeyBudget(store, caller.id, { quotas: [{ period: 'day', limit: 20 }] });
    } finally {
      await store.close();
    }
    // Both instances see the key's quota before the burst (each answers once, 2 of 20 spent).
    for (const index of [0, 1])
      assert.equal((await system.callOn(index, caller.secret, '/v2/channels')).status, 200);
    // 30 calls at once, alternating instances: 80 % and 100 % are crossed on both, in the same moment.
    const statuses = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        system.callOn(i % 2, caller.secret, '/v2/channels').then((r) => r.status),
      ),
    );
    assert.equal(statuses.filter((s) => s === 200).length, 18);
    assert.equal(statuses.filter((s) => s === 429).length, 12);
    await waitUntil(
      'both thresholds at the receiver',
      () => receiver.types().filter((t) => t === 'quota.threshold').length >= 2,
      {
        timeoutMs: 30_000,
      },
    );
    // Anything recorded twice would have been due before this test alert, which comes last.
    const test = await system.callOn(1, admin.secret, `/v2/auth/alert-endpoints/${endpoint.id}:test`, {
      method: 'POST',
    });
    assert.equal(test.status, 202);
    await waitUntil('the test alert', () => receiver.types().includes('alert.test'), { timeoutMs: 30_000 });
    const thresholds = receiver.verified.filter((alert) => alert.type === 'quota.threshold');
    assert.deepEqual(thresholds.map((alert) => alert.data.threshold).sort(), [100, 80]);
    const created2 = receiver.verified.filter((alert) => alert.type === 'key.created');
    assert.deepEqual(
      created2.map((alert) => alert.data.keyId),
      [caller.id],
    );
    const ids = receiver.requests.map((r) => r.webhookId);
    assert.equal(new Set(ids).size, ids.length, `a delivery was sent twice: ${ids.join(', ')}`);
  });
});
