import assert from 'node:assert/strict';
import { createKeyLayout } from '../../gateway/src/store/redis/keys.ts';
import type { ClusterTarget } from '../../gateway/src/store/redis/target.ts';
import {
  masterOfSynced,
  startRedisCluster,
  type TestTopology,
} from '../../gateway/test/support/redis-topology.ts';
import { json, type System, startSystem } from '../support/system.ts';
import { burst, startTraffic, tally, waitUntil } from '../support/traffic.ts';

const CHANNELS = '/v2/channels';

interface Key {
  id: string;
  prefix: string;
  secret: string;
}

function log(line: string): void {
  console.log(`      measured: ${line}`);
}

describe('two gateway processes on a Redis Cluster (3 masters, 1 replica each)', function () {
  this.timeout(180_000);
  let cluster: TestTopology<ClusterTarget>;
  let system: System;
  let admin: Key;

  const send = (instance: number, secret: string, method: string, path: string) =>
    system.callOn(instance, secret, path, { method });

  async function createKey(name: string, scopes: string[], perMinute: number): Promise<Key> {
    return system.createKey({ name, env: 'live', scopes, extra: ['--rate-limit', String(perMinute)] });
  }

  async function warm(secret: string): Promise<void> {
    for (let instance = 0; instance < system.gateways.length; instance++) {
      const res = await system.callOn(instance, secret, CHANNELS);
      assert.equal(res.status, 200, `gateway ${instance + 1}: ${await res.text()}`);
    }
  }

  before(async () => {
    cluster = await startRedisCluster({ replicas: 1 });
    system = await startSystem({
      gateways: 2,
      redisEnv: {
        KEYGATE_REDIS_CLUSTER_NODES: cluster.target.clusterNodes.map((n) => `${n.host}:${n.port}`).join(','),
      },
    });
    admin = await createKey('ops', ['auth:rw', 'article:r'], 100_000);
  });

  after(async () => {
    await system?.stop();
    await cluster?.stop();
  });

  describe('with a key revoked through gateway 1', () => {
    it('refuses all of 1,000 immediate calls on gateway 2, which had cached the key', async () => {
      const key = await createKey('to-revoke', ['article:r'], 100_000);
      await warm(key.secret);
      const revoked = await send(0, admin.secret, 'DELETE', `/v2/auth/keys/${key.id}`);
      assert.equal(revoked.status, 200, await revoked.text());
      const statuses = await burst(1000, 50, () => system.callOn(1, key.secret, CHANNELS));
      log(`cluster: revoke on gateway 1 → 1,000 calls on gateway 2: ${JSON.stringify(tally(statuses))}`);
      assert.deepEqual(tally(statuses), { 401: 1000 });
    });
  });

  describe('with a key allowing 30 calls per minute, rotated (two secrets)', () => {
    it('accepts exactly 30 of 90 calls spread over both gateways and both secrets', async () => {
      const key = await createKey('limited', ['article:r'], 30);
      const rotated = await system.keygate('keys', 'rotate', key.id, '--json');
      assert.equal(rotated.code, 0, rotated.stderr);
      const next = JSON.parse(rotated.stdout) as Key;
      const statuses = await burst(90, 15, (i) =>
        system.callOn(i % 2, i % 3 === 0 ? key.secret : next.secret, CHANNELS),
      );
      log(`cluster: rate limit 30/min, 90 calls over 2 gateways: ${JSON.stringify(tally(statuses))}`);
      assert.deepEqual(tally(statuses), { 200: 30, 429: 60 });
    });
  });

  describe('with the master holding a key killed (SIGKILL) during traffic', () => {
    it('serves again on every instance after the replica is promoted, and never accepts a revoked key', async () => {
      const good = await createKey('keeps-working', ['article:r'], 100_000);
      const gone = await createKey('revoked-before', ['article:r'], 100_000);
      await warm(good.secret);
      await warm(gone.secret);
      const revoked = await send(0, admin.secret, 'DELETE', `/v2/auth/keys/${gone.id}`);
      assert.equal(revoked.status, 200);
      // The revoke reached the replicas before the master goes.
      const victim = await masterOfSynced(
        cluster,
        createKeyLayout('keygate:', true).forKey(good.id).key(good.id),
      );
      const traffic = startTraffic(system, [
        { label: 'good', secret: good.secret, path: CHANNELS },
        { label: 'revoked', secret: gone.secret, path: CHANNELS },
      ]);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const killedAt = Date.now();
      await victim.kill();
      try {
        await waitUntil(
          'every gateway serves the key on the killed master again',
          () =>
            system.gateways.every((_, instance) =>
              traffic.samples.some(
                (s) =>
                  s.instance === instance && s.label === 'good' && s.sentAt > killedAt && s.status === 200,
              ),
            ) && traffic.samples.filter((s) => s.label === 'good').at(-1)?.status === 200,
          { timeoutMs: 60_000, intervalMs: 200 },
        );
      } finally {
        await traffic.stop();
      }
      const after = traffic.samples.filter((s) => s.sentAt > killedAt);
      const revokedAccepted = traffic.samples.filter((s) => s.label === 'revoked' && s.status === 200);
      log(
        `cluster failover: good ${JSON.stringify(tally(after.filter((s) => s.label === 'good').map((s) => s.status)))}, revoked ${JSON.stringify(tally(traffic.samples.filter((s) => s.label === 'revoked').map((s) => s.status)))}`,
      );
      assert.equal(revokedAccepted.length, 0, 'a revoked key was accepted');
      for (let instance = 0; instance < system.gateways.length; instance++) {
        const res = await system.callOn(instance, good.secret, CHANNELS);
        assert.equal(res.status, 200, `gateway ${instance + 1} after the failover: ${await res.text()}`);
      }
      const ready = await json<{ checks: Record<string, string> }>(
        await fetch(`${system.gateway.url}/readyz`),
      );
      assert.equal(ready.checks.store, 'ok');
    });
  });
});
