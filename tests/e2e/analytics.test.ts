import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { startRedis, type TestRedis } from '../support/redis.ts';
import { json, type System, startSystem } from '../support/system.ts';
import { waitUntil } from '../support/traffic.ts';

interface Key {
  id: string;
  secret: string;
}

interface Series {
  data: Array<{ start: string; outcomes: Record<string, number> }>;
}

const OUTCOME_OF_STATUS: Record<number, string> = {
  200: 'VALID',
  429: 'RATE_LIMITED',
  403: 'FORBIDDEN_SCOPE',
  401: 'EXPIRED',
};

/** The series' calls per outcome, summed over its buckets (outcomes with none left out). */
function totalsOf(series: Series): Record<string, number> {
  const totals: Record<string, number> = {};
  for (const point of series.data) {
    for (const [outcome, calls] of Object.entries(point.outcomes)) {
      if (calls > 0) totals[outcome] = (totals[outcome] ?? 0) + calls;
    }
  }
  return totals;
}

describe('analytics: two gateway processes counting into one Redis', function () {
  this.timeout(120_000);
  let redis: TestRedis;
  let system: System;
  let admin: Key;

  before(async () => {
    redis = await startRedis({ persistent: true });
    system = await startSystem({ gateways: 2, redisUrl: redis.url });
    admin = await system.createKey({ name: 'ops', env: 'live', scopes: ['auth:rw', 'article:r'] });
  });
  after(async () => {
    await system?.stop();
    await redis?.stop();
  });

  const analytics = async (instance: number, keyId: string, query: string) => {
    const res = await system.callOn(instance, admin.secret, `/v2/auth/keys/${keyId}/analytics?${query}`);
    assert.equal(res.status, 200, await res.clone().text());
    return json<Series>(res);
  };

  /** The last day of a key moved to yesterday in the shared store, as if its expiry had passed. */
  function expireInRedis(keyId: string): void {
    const cli = (...args: string[]) =>
      execFileSync('redis-cli', ['-u', redis.url, ...args], { encoding: 'utf8' });
    const name = `keygate:key:${keyId}`;
    const data = JSON.parse(cli('HGET', name, 'data')) as { expiresAt: string };
    data.expiresAt = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    cli('HSET', name, 'data', JSON.stringify(data));
    cli('HINCRBY', name, 'version', '1');
  }

  it('answers exact series per outcome, whichever instance counted or is asked', async () => {
    const created = await system.callOn(0, admin.secret, '/v2/auth/keys', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        name: 'counted',
        environment: 'live',
        scopes: ['article:r'],
        rateLimit: { perMinute: 7 },
        expiresAt: new Date().toISOString().slice(0, 10),
      }),
    });
    assert.equal(created.status, 201, await created.clone().text());
    const key = await json<Key>(created);
    const sent: Record<string, number> = {};
    const count = (status: number) => {
      const outcome = OUTCOME_OF_STATUS[status];
      assert.ok(outcome, `unexpected status ${status}`);
      sent[outcome] = (sent[outcome] ?? 0) + 1;
    };
    const from = new Date(Date.now() - 60_000).toISOString();
    for (let i = 0; i < 12; i++) count((await system.callOn(i % 2, key.secret, '/v2/channels')).status);
    for (let i = 0; i < 3; i++) count((await system.callOn(i % 2, key.secret, '/v2/carts/cart_none')).status);
    expireInRedis(key.id);
    for (let i = 0; i < 4; i++) count((await system.callOn(i % 2, key.secret, '/v2/channels')).status);
    assert.ok(
      sent.VALID && sent.RATE_LIMITED,
      `a mix of admitted and limited calls: ${JSON.stringify(sent)}`,
    );
    assert.equal(sent.FORBIDDEN_SCOPE, 3);
    assert.equal(sent.EXPIRED, 4);

    // Each instance flushes its counts about once a second.
    let minutes: Series = { data: [] };
    await waitUntil('both instances flushed', async () => {
      minutes = await analytics(1, key.id, `granularity=minute&from=${from}`);
      return (
        JSON.stringify(totalsOf(minutes)) ===
        JSON.stringify(totalsOf({ data: [{ start: '', outcomes: sent }] }))
      );
    });
    assert.deepEqual(totalsOf(minutes), totalsOf({ data: [{ start: '', outcomes: sent }] }));
    const hours = await analytics(0, key.id, `granularity=hour&from=${from}`);
    assert.deepEqual(totalsOf(hours), totalsOf(minutes), 'the hours are the sum of their minutes');
    const days = await analytics(0, key.id, 'granularity=day&outcome=EXPIRED');
    assert.equal(days.data.at(-1)?.outcomes.EXPIRED, 4);
    assert.deepEqual(Object.keys(days.data.at(-1)?.outcomes ?? {}), ['EXPIRED']);
  });
});
