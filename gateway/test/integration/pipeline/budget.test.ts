import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { billingRowsOf } from '../../../src/budget/call-buckets.ts';
import type { BudgetLedger } from '../../../src/budget/ledger.ts';
import { createMemoryLedger } from '../../../src/budget/memory-ledger.ts';
import { resolvePolicy } from '../../../src/budget/policy.ts';
import { type BudgetUsageRow, createUsageMeter, type UsageMeter } from '../../../src/budget/usage-meter.ts';
import { startTestGateway, type TestGateway } from '../../support/gateway.ts';
import { seedKey } from '../../support/keys.ts';

/** An upstream that names every call's cost in `Keygate-Cost`. */
async function startCostingUpstream(cost: string): Promise<{ url: string; calls: number; server: Server }> {
  const upstream = { url: '', calls: 0, server: createServer() };
  upstream.server.on('request', (_req, res) => {
    upstream.calls++;
    res.writeHead(200, { 'content-type': 'application/json', 'keygate-cost': cost }).end('{}');
  });
  await new Promise<void>((resolve) => upstream.server.listen(0, '127.0.0.1', resolve));
  upstream.url = `http://127.0.0.1:${(upstream.server.address() as AddressInfo).port}`;
  return upstream;
}

describe('key pipeline: plans, quotas and credits', () => {
  let gw: TestGateway;
  let ledger: BudgetLedger & { close(): void };
  let billed: BudgetUsageRow[];
  let meter: UsageMeter;
  const start = async (upstreamUrl?: string) => {
    billed = [];
    meter = createUsageMeter({
      store: {
        addBudgetUsage: async (rows) => {
          billed.push(...rows);
        },
        addCallUsage: async (rows) => {
          billed.push(...billingRowsOf(rows));
        },
        readBudgetUsage: async () => [],
        listBudgetUsage: async () => [],
        readCallBuckets: async () => [],
        pruneCallBuckets: async () => 0,
      },
      flushIntervalMs: 3_600_000,
    });
    gw = await startTestGateway({
      meter,
      ...(upstreamUrl ? { upstreamUrls: { live: upstreamUrl } } : {}),
      budgets: (clock) => {
        ledger = createMemoryLedger({ clock });
        return {
          policyOf: (key) => resolvePolicy({ key, identity: null, keyPlan: null, identityPlan: null }),
          ledger,
        };
      },
    });
  };
  afterEach(async () => {
    await meter.close();
    ledger.close();
    await gw.stop();
  });

  const get = (token: string) =>
    request(gw.app).get('/v2/catalog/products').set('Authorization', `Bearer ${token}`);

  describe('with a key allowing 3 calls a day and 10 a second', () => {
    beforeEach(() => start());

    it('names every policy in the RateLimit headers and refuses the 4th call with QUOTA_EXCEEDED until midnight UTC', async () => {
      const { key, token } = await seedKey(gw.store, gw.hasher, { perMinute: 1000 });
      key.quotas = [{ period: 'day', limit: 3 }];
      key.limits = [{ name: 'burst', window: 'second', limit: 10 }];
      for (const left of [2, 1, 0]) {
        const res = await get(token);
        assert.equal(res.status, 200);
        assert.equal(
          res.headers['ratelimit-policy'],
          '"per-key";q=1000;w=60, "burst";q=10;w=1, "day";q=3;w=86400',
        );
        assert.match(
          res.headers.ratelimit ?? '',
          new RegExp(`"burst";r=${9 - (2 - left)};t=1, "day";r=${left};t=43200$`),
        );
      }
      const refused = await get(token);
      assert.equal(refused.status, 429);
      assert.equal(refused.headers['content-type'], 'application/problem+json');
      assert.equal(refused.body.code, 'QUOTA_EXCEEDED');
      assert.equal(refused.body.policy, 'day');
      assert.equal(refused.headers['retry-after'], '43200');
      assert.match(refused.body.detail, /daily quota of 3 is used up; it resets at 2026-01-16T00:00:00.000Z/);
      assert.equal(gw.live.seen.length, 3);

      await meter.flush();
      assert.deepEqual(
        billed.map((row) => `${row.subject} ${row.day} ${row.outcome} ${row.calls} ${row.cost}`).sort(),
        [`${key.id} 2026-01-15 QUOTA_EXCEEDED 1 0`, `${key.id} 2026-01-15 VALID 3 3`],
      );

      gw.clock.now += 43_200_000;
      assert.equal((await get(token)).status, 200);
      assert.equal(gw.live.seen.length, 4);
    });

    it('refuses a burst beyond its per-second limit with RATE_LIMITED and spends nothing of the day', async () => {
      const { key, token } = await seedKey(gw.store, gw.hasher);
      key.quotas = [{ period: 'day', limit: 100 }];
      key.limits = [{ name: 'burst', window: 'second', limit: 2 }];
      assert.equal((await get(token)).status, 200);
      assert.equal((await get(token)).status, 200);
      const refused = await get(token);
      assert.equal(refused.status, 429);
      assert.equal(refused.body.code, 'RATE_LIMITED');
      assert.equal(refused.headers['retry-after'], '1');
      assert.match(refused.headers.ratelimit ?? '', /"day";r=98;/);
    });
  });

  describe('with a key holding credits', () => {
    beforeEach(() => start());

    it('spends one credit a call, says what remains, and refuses at zero without Retry-After when nothing refills', async () => {
      const { key, token } = await seedKey(gw.store, gw.hasher);
      key.credits = { refill: null };
      await ledger.changeCredits(
        { lines: [], credits: { subject: key.id, refill: null } },
        { set: 2 },
        gw.clock(),
      );
      assert.equal((await get(token)).headers['keygate-credits-remaining'], '1');
      assert.equal((await get(token)).headers['keygate-credits-remaining'], '0');
      const refused = await get(token);
      assert.equal(refused.status, 429);
      assert.equal(refused.body.code, 'CREDITS_EXHAUSTED');
      assert.equal(refused.body.creditsRemaining, 0);
      assert.equal(refused.headers['retry-after'], undefined);
      assert.equal(gw.live.seen.length, 2);
    });

    it('refills a daily balance at midnight UTC and names the refill in the refusal', async () => {
      const { key, token } = await seedKey(gw.store, gw.hasher);
      const refill = { interval: 'daily' as const, amount: 1 };
      key.credits = { refill };
      assert.equal((await get(token)).status, 200);
      const refused = await get(token);
      assert.equal(refused.body.code, 'CREDITS_EXHAUSTED');
      assert.equal(refused.headers['retry-after'], '43200');
      gw.clock.now += 43_200_000;
      assert.equal((await get(token)).status, 200);
    });
  });

  describe("with an upstream that names a call's cost", () => {
    let upstream: Awaited<ReturnType<typeof startCostingUpstream>>;
    afterEach(() => new Promise<void>((resolve) => upstream.server.close(() => resolve())));

    it('charges the difference to the balance and quota and never passes Keygate-Cost on', async () => {
      upstream = await startCostingUpstream('5');
      await start(upstream.url);
      const { key, token } = await seedKey(gw.store, gw.hasher);
      key.credits = { refill: null };
      key.quotas = [{ period: 'month', limit: 100 }];
      await ledger.changeCredits(
        { lines: [], credits: { subject: key.id, refill: null } },
        { set: 10 },
        gw.clock(),
      );
      const res = await get(token);
      assert.equal(res.status, 200);
      assert.equal(res.headers['keygate-cost'], undefined);
      assert.equal(res.headers['keygate-credits-remaining'], '9');
      const policy = resolvePolicy({ key, identity: null, keyPlan: null, identityPlan: null })!;
      assert.equal(
        (await ledger.readCredits({ ...policy, credits: policy.credits! }, gw.clock())).remaining,
        5,
      );
      assert.deepEqual(await ledger.readUsed(policy, gw.clock()), [5]);
      assert.equal(upstream.calls, 1);
      await meter.flush();
      assert.deepEqual(
        billed.map((row) => [row.outcome, row.calls, row.cost]),
        [['VALID', 1, 5]],
        'billed at the cost the upstream named',
      );
    });
  });
});
