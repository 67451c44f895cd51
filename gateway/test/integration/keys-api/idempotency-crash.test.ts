import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IDEMPOTENCY_LEASE_MS } from '@keygate/contracts/idempotency';
import { generateIdentityKeyPair } from '@keygate/identity';
import request from 'supertest';
import { type GatewayConfig, loadConfig } from '../../../src/config.ts';
import { createLogger } from '../../../src/http/logger.ts';
import type { Actor } from '../../../src/model/model.ts';
import { type OpenedGateway, openGateway } from '../../../src/open-gateway.ts';
import { TEST_TAG_KEY } from '../../support/redis-gateway.ts';
import { startRedis } from '../../support/redis-server.ts';
import { startRedisCluster } from '../../support/redis-topology.ts';
import { startEchoUpstream, type TestUpstream } from '../../support/upstream.ts';

const ADMIN: Actor = { type: 'admin', id: 'adm_test' };

/** A method that commits, then never returns: the process died right after the commit. */
type Write = 'commitChange' | 'createPlan' | 'changeCredits';

/**
 * Makes `method` of a gateway's own store (or budget ledger) object commit and then hang, as a
 * process killed right after its commit would: nothing the gateway does after the commit (answer,
 * record, relay) runs. Resolves when the commit is made.
 */
function dieAfterCommit(instance: OpenedGateway, method: Write): Promise<void> {
  const target = method === 'changeCredits' ? instance.backend.ledger : instance.backend.store;
  return new Promise((committed) => {
    const methods = target as unknown as Record<Write, (...args: unknown[]) => Promise<unknown>>;
    const write = methods[method].bind(target);
    Object.assign(target, {
      [method]: async (...args: unknown[]) => {
        await write(...args);
        committed();
        return new Promise<never>(() => {});
      },
    });
  });
}

/**
 * A gateway that commits a change and dies before it answers, then a new gateway (a fresh process
 * state: no cache, no claim in memory) on the same store: the retry under the same Idempotency-Key
 * gets the first answer replayed and the change is not made twice (issue #47), and the change's
 * alert is in the outbox (issue #45).
 */
function describeCrashAfterCommit(
  name: string,
  open: () => Promise<{ env: Record<string, string>; stop(): Promise<void> }>,
) {
  describe(`a gateway dying right after its commit: ${name}`, function () {
    this.timeout(60_000);
    let upstream: TestUpstream;
    let config: GatewayConfig;
    let stopStore: () => Promise<void>;
    const opened: OpenedGateway[] = [];
    const logger = createLogger('silent');
    let manager: { id: string; secret: string };

    beforeEach(async () => {
      const store = await open();
      stopStore = store.stop;
      upstream = await startEchoUpstream('live');
      const { privateJwk } = await generateIdentityKeyPair();
      config = loadConfig({
        KEYGATE_UPSTREAM_LIVE: upstream.url,
        KEYGATE_UPSTREAM_TEST: upstream.url,
        KEYGATE_IDENTITY_PRIVATE_JWK: JSON.stringify(privateJwk),
        KEYGATE_SECRET_TAG_KEY: TEST_TAG_KEY,
        ...store.env,
      });
      const first = await openGateway(config, { logger });
      opened.push(first);
      const created = await first.keyService.createKey(
        ADMIN,
        { name: 'manager', environment: 'live', scopes: ['auth:rw', 'order:rw'] },
        { sourceIp: null },
      );
      manager = { id: created.key.id, secret: created.secret };
    });
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((instance) => instance.close()));
      await upstream.close();
      await stopStore();
    });

    /**
     * Sends the request to `instance` over its own server and, once the commit is made, drops the
     * connection and the server: the caller never hears an answer.
     */
    async function sendAndDie(instance: OpenedGateway, method: Write, path: string, body: object) {
      const committed = dieAfterCommit(instance, method);
      const server = createServer(instance.gateway.app);
      await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
      const { port } = server.address() as AddressInfo;
      const aborted = new AbortController();
      const answered = fetch(`http://127.0.0.1:${port}${path}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${manager.secret}`,
          'idempotency-key': 'crash-1',
          'content-type': 'application/json',
        },
        body: JSON.stringify(body),
        signal: aborted.signal,
      }).then(
        () => true,
        () => false,
      );
      await committed;
      aborted.abort();
      server.closeAllConnections();
      await new Promise((closed) => server.close(closed));
      assert.equal(await answered, false, 'the dying gateway answered');
    }
    const retry = (instance: OpenedGateway, path: string, body: object) =>
      request(instance.gateway.app)
        .post(path)
        .set('Authorization', `Bearer ${manager.secret}`)
        .set('Idempotency-Key', 'crash-1')
        .send(body);

    it('replays the created key on a new instance, and the key and its alert exist once', async () => {
      const body = { name: 'child', scopes: ['order:r'] };
      await sendAndDie(opened[0]!, 'commitChange', '/v2/auth/keys', body);
      const next = await openGateway(config, { logger });
      opened.push(next);
      const replayed = await retry(next, '/v2/auth/keys', body);
      assert.equal(replayed.status, 201, replayed.text);
      assert.equal(replayed.headers['idempotent-replayed'], 'true');
      const children = (await next.keyService.listKeys(ADMIN, {})).filter((key) => key.name === 'child');
      assert.deepEqual(
        children.map((key) => key.id),
        [replayed.body.id],
      );
      assert.equal(replayed.headers.location, `/v2/auth/keys/${replayed.body.id}`);
      const activity = await next.keyService.getActivity(ADMIN, replayed.body.id, { action: 'key.created' });
      assert.equal(activity.items.length, 1);
      const { alerts, store } = next.backend;
      await store.relayAlerts?.();
      const events = await alerts!.listEvents('', 1000);
      const created = events.filter((event) => event.body.includes(`"keyId":"${replayed.body.id}"`));
      assert.deepEqual(
        created.map((event) => event.type),
        ['key.created'],
      );
    });

    it('replays the created plan on a new instance, and the plan exists once', async () => {
      const body = {
        name: 'Crash plan',
        limits: [{ name: 'minute', window: 'minute', limit: 10 }],
        quotas: [],
      };
      await sendAndDie(opened[0]!, 'createPlan', '/v2/auth/plans', body);
      const next = await openGateway(config, { logger });
      opened.push(next);
      const replayed = await retry(next, '/v2/auth/plans', body);
      assert.equal(replayed.status, 201, replayed.text);
      assert.equal(replayed.headers['idempotent-replayed'], 'true');
      const plans = (await next.backend.store.listPlans()).filter((plan) => plan.name === 'Crash plan');
      assert.deepEqual(
        plans.map((plan) => plan.id),
        [replayed.body.id],
      );
    });

    it('changes credits once when the retry comes after the lease lapsed on a new instance', async () => {
      const { key } = await opened[0]!.keyService.createKey(
        ADMIN,
        {
          name: 'prepaid',
          environment: 'live',
          scopes: ['order:r'],
          credits: { remaining: 10, refill: null },
        },
        { sourceIp: null },
      );
      const path = `/v2/auth/keys/${key.id}/credits`;
      await sendAndDie(opened[0]!, 'changeCredits', path, { increment: 5 });
      // No record was written, only the lease: a retry runs again once the lease lapses.
      const lapsed = () => Date.now() + IDEMPOTENCY_LEASE_MS + 1_000;
      const next = await openGateway(config, { logger, clock: lapsed });
      opened.push(next);
      const retried = await retry(next, path, { increment: 5 });
      assert.equal(retried.status, 200, retried.text);
      assert.equal(retried.body.remaining, 15);
      const again = await retry(next, path, { increment: 5 });
      assert.equal(again.headers['idempotent-replayed'], 'true');
      assert.equal(again.body.remaining, 15);
      const balance = await request(next.gateway.app)
        .get(path)
        .set('Authorization', `Bearer ${manager.secret}`);
      assert.equal(balance.body.remaining, 15, 'the increment was applied twice');
      // Another request (another Idempotency-Key) is another operation.
      const other = await request(next.gateway.app)
        .post(path)
        .set('Authorization', `Bearer ${manager.secret}`)
        .set('Idempotency-Key', 'crash-2')
        .send({ increment: 5 });
      assert.equal(other.body.remaining, 20);
    });
  });
}

describeCrashAfterCommit('SQLite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'keygate-crash-'));
  return { env: { KEYGATE_DATA_DIR: dir }, stop: async () => rmSync(dir, { recursive: true, force: true }) };
});

describeCrashAfterCommit('Redis', async () => {
  const redis = await startRedis();
  return {
    env: {
      KEYGATE_DATA_DIR: '/tmp/keygate-test-unused',
      REDIS_URL: redis.url,
      KEYGATE_REDIS_PREFIX: redis.keyPrefix,
    },
    stop: () => redis.stop(),
  };
});

describe('on a Redis Cluster (3 masters)', () => {
  let cluster: Awaited<ReturnType<typeof startRedisCluster>>;
  let runs = 0;
  before(async function () {
    this.timeout(60_000);
    cluster = await startRedisCluster();
  });
  after(async () => {
    await cluster?.stop();
  });
  describeCrashAfterCommit('Redis Cluster', async () => ({
    env: {
      KEYGATE_DATA_DIR: '/tmp/keygate-test-unused',
      KEYGATE_REDIS_CLUSTER_NODES: cluster.target.clusterNodes.map((n) => `${n.host}:${n.port}`).join(','),
      KEYGATE_REDIS_PREFIX: `${cluster.keyPrefix}crash${++runs}:`,
    },
    stop: async () => {},
  }));
});
