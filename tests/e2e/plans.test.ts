import assert from 'node:assert/strict';
import type { ClusterTarget } from '../../gateway/src/store/redis/target.ts';
import { startRedisCluster, type TestTopology } from '../../gateway/test/support/redis-topology.ts';
import { json, type System, startSystem } from '../support/system.ts';
import { burst, tally, waitUntil } from '../support/traffic.ts';

// Plans, quotas, credits and identities as an integrator and the team selling access see them, on
// real processes: one gateway on its SQLite file, and three gateways sharing a Redis Cluster.

const PRODUCTS = '/v2/channels';

function log(line: string): void {
  console.log(`      measured: ${line}`);
}

function describePlans(name: string, start: () => Promise<{ system: System; stop(): Promise<void> }>) {
  describe(`plans, quotas and credits (${name})`, function () {
    this.timeout(180_000);
    let system: System;
    let stop: () => Promise<void>;
    let admin: string;
    before(async () => {
      ({ system, stop } = await start());
      admin = (await system.createKey({ name: 'sales', env: 'live', scopes: ['auth:rw', 'article:r'] }))
        .secret;
    });
    after(() => stop?.());

    const gateways = () => system.gateways.length;
    const api = async (method: string, path: string, body?: unknown) => {
      const res = await system.call(admin, path, {
        method,
        headers: { 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const parsed = await json(res);
      assert.ok(res.status < 300, `${method} ${path}: ${res.status} ${JSON.stringify(parsed)}`);
      return parsed as Record<string, unknown> & { id: string };
    };
    const keysOf = async (identityId: string, count: number) => {
      const keys: string[] = [];
      for (let i = 0; i < count; i++) {
        const key = await api('POST', '/v2/auth/keys', { name: `k${i}`, scopes: ['article:r'], identityId });
        keys.push(String(key.secret));
      }
      return keys;
    };

    it("admits exactly a customer's monthly quota from 200 concurrent calls of its ten keys", async () => {
      const plan = await api('POST', '/v2/auth/plans', {
        name: 'Fifty',
        quotas: [{ period: 'month', limit: 50 }],
      });
      const identity = await api('POST', '/v2/auth/identities', {
        externalId: `fifty-${name}`,
        planId: plan.id,
      });
      const keys = await keysOf(identity.id, 10);
      const statuses = await burst(200, 40, (i) => system.callOn(i % gateways(), keys[i % 10]!, PRODUCTS));
      log(
        `${name}: 200 calls, 10 keys, ${gateways()} gateway(s), quota 50 → ${JSON.stringify(tally(statuses))}`,
      );
      assert.deepEqual(tally(statuses), { 200: 50, 429: 150 });
      const refused = await system.callOn(gateways() - 1, keys[3]!, PRODUCTS);
      assert.equal((await json(refused)).code, 'QUOTA_EXCEEDED');

      // A plan change reaches every instance as fast as a revocation: well within a second.
      await api('PATCH', `/v2/auth/plans/${plan.id}`, { quotas: [{ period: 'month', limit: 60 }] });
      const changedAt = Date.now();
      const last = gateways() - 1;
      await waitUntil(
        `gateway ${last + 1} admits under the raised quota`,
        async () => (await system.callOn(last, keys[9]!, PRODUCTS)).status === 200,
        { timeoutMs: 1000, intervalMs: 20 },
      );
      log(
        `${name}: plan raised on gateway 1 → admitted on gateway ${last + 1} after ${Date.now() - changedAt} ms`,
      );
    });

    it('spends shared credits exactly under concurrency, and a top-up counts once under a retried Idempotency-Key', async () => {
      const identity = await api('POST', '/v2/auth/identities', {
        externalId: `prepaid-${name}`,
        credits: { remaining: 30 },
      });
      const keys = await keysOf(identity.id, 4);
      const statuses = await burst(100, 25, (i) => system.callOn(i % gateways(), keys[i % 4]!, PRODUCTS));
      assert.deepEqual(tally(statuses), { 200: 30, 429: 70 });
      const topUp = () =>
        system.call(admin, `/v2/auth/identities/${identity.id}/credits`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'idempotency-key': `top-up-${name.replaceAll(' ', '-')}`,
          },
          body: JSON.stringify({ increment: 5 }),
        });
      assert.equal((await json(await topUp())).remaining, 5);
      const replay = await topUp();
      assert.equal(replay.headers.get('idempotent-replayed'), 'true');
      assert.equal((await api('GET', `/v2/auth/identities/${identity.id}/credits`)).remaining, 5);
    });

    it('charges a GraphQL query what commerce prices it, and never shows the caller Keygate-Cost', async () => {
      const key = await api('POST', '/v2/auth/keys', {
        name: 'graph',
        scopes: ['article:r'],
        credits: { remaining: 1000 },
      });
      const query = (first: number) =>
        system.call(String(key.secret), '/v2/graphql', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-channel': 'WEB_DE' },
          body: JSON.stringify({ query: `{ products(first: ${first}) { edges { node { sku } } } }` }),
        });
      const small = await query(10);
      assert.equal(small.status, 200, await small.clone().text());
      assert.equal(small.headers.get('keygate-cost'), null);
      const afterSmall = Number((await api('GET', `/v2/auth/keys/${key.id}/credits`)).remaining);
      const large = await query(250);
      assert.equal(large.status, 200);
      const afterLarge = Number((await api('GET', `/v2/auth/keys/${key.id}/credits`)).remaining);
      const smallCost = 1000 - afterSmall;
      const largeCost = afterSmall - afterLarge;
      log(`${name}: GraphQL products(first: 10) cost ${smallCost}, products(first: 250) cost ${largeCost}`);
      assert.ok(smallCost > 1 && largeCost > smallCost, `${smallCost} then ${largeCost}`);
    });
  });
}

describePlans('one gateway on SQLite', async () => {
  const system = await startSystem();
  return { system, stop: () => system.stop() };
});

let cluster: TestTopology<ClusterTarget> | undefined;
describePlans('three gateways on a Redis Cluster', async () => {
  cluster = await startRedisCluster();
  const system = await startSystem({
    gateways: 3,
    redisEnv: {
      KEYGATE_REDIS_CLUSTER_NODES: cluster.target.clusterNodes.map((n) => `${n.host}:${n.port}`).join(','),
    },
  });
  return {
    system,
    async stop() {
      await system.stop();
      await cluster?.stop();
    },
  };
});
