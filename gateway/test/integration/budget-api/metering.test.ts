import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateIdentityKeyPair } from '@keygate/identity';
import request from 'supertest';
import { loadConfig } from '../../../src/config.ts';
import { createLogger } from '../../../src/http/logger.ts';
import { type OpenedGateway, openGateway } from '../../../src/open-gateway.ts';
import { eventually } from '../../store.contract.ts';
import { TEST_TAG_KEY } from '../../support/redis-gateway.ts';
import { startRedis, type TestRedis } from '../../support/redis-server.ts';
import { startEchoUpstream, type TestUpstream } from '../../support/upstream.ts';
import { ADMIN } from './budget-app.ts';

const DAY = 86_400_000;
const PRODUCTS = '/v2/catalog/products';

/** A settable clock ahead of real time (counts expire at absolute instants on Redis' own clock). */
function aheadClock() {
  const start = Date.now();
  const real = Date.parse(new Date(start).toISOString().slice(0, 10));
  // Noon UTC of the next day: far from midnight, so a test step never crosses a day by accident.
  let offset = real + DAY + DAY / 2 - start;
  const clock = () => Date.now() + offset;
  return { clock, advance: (ms: number) => (offset += ms) };
}

type Instances = {
  gateways: OpenedGateway[];
  clock(): number;
  advance(ms: number): void;
  close(): Promise<void>;
};

/** The plans, quotas and credits an integrator sees, on `open`'s instances (calls alternate between them). */
function describeMetering(name: string, open: () => Promise<Instances>) {
  describe(`plans, quotas and credits through the API (${name})`, function () {
    this.timeout(30_000);
    let system: Instances;
    let manager: string;
    beforeEach(async () => {
      system = await open();
      const created = await system.gateways[0]!.keyService.createKey(
        ADMIN,
        { name: 'manager', environment: 'live', scopes: ['auth:rw', 'article:r'] },
        { sourceIp: null },
      );
      manager = created.secret;
    });
    afterEach(() => system.close());

    const on = (i: number) => system.gateways[i % system.gateways.length]!.gateway.app;
    const api = (method: 'get' | 'post' | 'patch', path: string, body?: unknown) => {
      const req = request(on(0))[method](path).auth(manager, { type: 'bearer' });
      return body === undefined ? req : req.send(body as object);
    };
    const call = (i: number, token: string) => request(on(i)).get(PRODUCTS).auth(token, { type: 'bearer' });
    const newKey = async (fields: Record<string, unknown>) => {
      const res = await api('post', '/v2/auth/keys', { name: 'k', scopes: ['article:r'], ...fields });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body as { id: string; secret: string };
    };

    it("shares an identity's quota among its keys and instances, follows a plan change at once and resets at midnight", async () => {
      const plan = (
        await api('post', '/v2/auth/plans', {
          name: 'Starter',
          limits: [{ name: 'minute', window: 'minute', limit: 100 }],
          quotas: [
            { period: 'day', limit: 3 },
            { period: 'month', limit: 1000 },
          ],
        })
      ).body;
      const identity = (await api('post', '/v2/auth/identities', { externalId: 'acme', planId: plan.id }))
        .body;
      const keys = [await newKey({ identityId: identity.id }), await newKey({ identityId: identity.id })];
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await call(i, keys[i % 2]!.secret);
        statuses.push(res.status);
        assert.match(
          res.headers['ratelimit-policy'] ?? '',
          /^"per-key";q=\d+;w=60, "minute";q=100;w=60, "day";q=3;w=86400, "month";q=1000;w=\d+$/,
        );
      }
      assert.deepEqual(statuses, [200, 200, 200]);
      for (let i = 0; i < 4; i++) {
        const refused = await call(i, keys[i % 2]!.secret);
        assert.equal(refused.status, 429);
        assert.equal(refused.body.code, 'QUOTA_EXCEEDED');
        assert.equal(refused.body.policy, 'day');
        assert.ok(Number(refused.headers['retry-after']) > 0);
      }

      assert.equal(
        (await api('patch', `/v2/auth/plans/${plan.id}`, { quotas: [{ period: 'day', limit: 5 }] })).status,
        200,
      );
      // Every instance follows the change on its next calls (pub/sub on Redis: within a second).
      assert.ok(
        await eventually(async () => (await call(1, keys[1]!.secret)).status === 200, 1000),
        'the other instance admits under the raised quota',
      );
      assert.equal((await call(0, keys[0]!.secret)).status, 200);
      assert.equal((await call(1, keys[1]!.secret)).body.code, 'QUOTA_EXCEEDED');

      system.advance(DAY);
      assert.equal((await call(0, keys[0]!.secret)).status, 200, 'a new day, a new quota');
    });

    it("gives back the quota of a call its key's own per-minute limit refused", async () => {
      const identity = (
        await api('post', '/v2/auth/identities', {
          externalId: 'give-back',
          quotas: [{ period: 'day', limit: 1000 }],
        })
      ).body;
      const limited = await newKey({ identityId: identity.id, rateLimit: { perMinute: 1 } });
      const other = await newKey({ identityId: identity.id });
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await call(i, limited.secret)).status);
      assert.deepEqual(statuses, [200, 429, 429]);
      // Give-backs are sent after the refusal's answer: on Redis they may land a moment later. Each
      // look spends one of `other`'s calls: after k looks, 1000 - 1 - k are left once both landed.
      let looks = 0;
      let left = '';
      const settled = await eventually(async () => {
        looks++;
        left = (await call(1, other.secret)).headers.ratelimit ?? '';
        return Number(/"day";r=(\d+);/.exec(left)?.[1]) === 1000 - 1 - looks;
      }, 2000);
      assert.ok(settled, `the refused calls are not counted on the day (${left} after ${looks} looks)`);
    });

    it('spends shared credits, refuses at zero, takes a top-up and refills daily', async () => {
      const identity = (
        await api('post', '/v2/auth/identities', {
          externalId: 'prepaid',
          credits: { remaining: 2, refill: { interval: 'daily', amount: 5 } },
        })
      ).body;
      const keys = [await newKey({ identityId: identity.id }), await newKey({ identityId: identity.id })];
      assert.equal((await call(0, keys[0]!.secret)).headers['keygate-credits-remaining'], '1');
      assert.equal((await call(1, keys[1]!.secret)).headers['keygate-credits-remaining'], '0');
      const refused = await call(0, keys[1]!.secret);
      assert.equal(refused.body.code, 'CREDITS_EXHAUSTED');
      assert.ok(Number(refused.headers['retry-after']) <= DAY / 1000);

      const topUp = await api('post', `/v2/auth/identities/${identity.id}/credits`, { increment: 1 });
      assert.equal(topUp.status, 200);
      assert.equal(topUp.body.remaining, 1);
      assert.equal((await call(1, keys[0]!.secret)).status, 200);
      assert.equal((await call(0, keys[0]!.secret)).body.code, 'CREDITS_EXHAUSTED');

      const ownCredits = await api('get', `/v2/auth/keys/${keys[0]!.id}/credits`);
      assert.equal(ownCredits.status, 409);
      assert.equal(ownCredits.body.code, 'CREDITS_NOT_HELD');
      const refusedKey = await api('post', '/v2/auth/keys', {
        name: 'k',
        scopes: ['article:r'],
        identityId: identity.id,
        credits: { remaining: 5 },
      });
      assert.equal(refusedKey.status, 422);

      system.advance(DAY);
      assert.equal(
        (await call(1, keys[1]!.secret)).headers['keygate-credits-remaining'],
        '4',
        'refilled to 5',
      );
      assert.equal((await api('get', `/v2/auth/identities/${identity.id}/credits`)).body.remaining, 4);
    });

    it("bills each call once: a period's usage by outcome, and an export that two reads agree on", async () => {
      const identity = (
        await api('post', '/v2/auth/identities', {
          externalId: 'billed',
          quotas: [{ period: 'month', limit: 2 }],
        })
      ).body;
      const member = await newKey({ identityId: identity.id });
      const alone = await newKey({ credits: { remaining: 10 } });
      for (let i = 0; i < 3; i++) await call(i, member.secret);
      await call(0, alone.secret);
      await call(1, alone.secret);
      const usageOf = async () =>
        (await api('get', `/v2/auth/identities/${identity.id}/usage?period=${thisMonth()}`)).body;
      assert.ok(
        await eventually(async () => (await usageOf()).total?.calls === 3, 5000),
        'the meter writes within its flush interval',
      );
      const usage = await usageOf();
      assert.deepEqual(usage.outcomes, {
        VALID: { calls: 2, cost: 2 },
        QUOTA_EXCEEDED: { calls: 1, cost: 0 },
      });
      const first = await api('get', `/v2/auth/usage/export?period=${thisMonth()}&format=csv`);
      assert.equal(first.status, 200);
      assert.match(first.headers['content-type'] ?? '', /^text\/csv/);
      assert.match(first.text, new RegExp(`identity,${identity.id},billed,live,VALID,2,2`));
      assert.match(first.text, new RegExp(`key,${alone.id},,live,VALID,2,2`));
      assert.doesNotMatch(first.text, new RegExp(member.id), 'a key of an identity is billed through it');
      const second = await api('get', `/v2/auth/usage/export?period=${thisMonth()}&format=csv`);
      assert.equal(second.text, first.text);
      const bad = await api('get', '/v2/auth/usage/export?period=2026-13');
      assert.equal(bad.status, 422);
    });

    /** The month of the gateways' clock. */
    function thisMonth(): string {
      return new Date(system.clock()).toISOString().slice(0, 7);
    }
  });
}

async function gatewayConfig(env: Record<string, string>, upstream: TestUpstream) {
  const { privateJwk } = await generateIdentityKeyPair();
  return loadConfig({
    KEYGATE_UPSTREAM_LIVE: upstream.url,
    KEYGATE_UPSTREAM_TEST: upstream.url,
    KEYGATE_IDENTITY_PRIVATE_JWK: JSON.stringify(privateJwk),
    KEYGATE_SECRET_TAG_KEY: TEST_TAG_KEY,
    ...env,
  });
}

describeMetering('one instance on a SQLite file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'keygate-metering-'));
  const upstream = await startEchoUpstream('live');
  const { clock, advance } = aheadClock();
  const config = await gatewayConfig({ KEYGATE_DATA_DIR: dir }, upstream);
  const gateway = await openGateway(config, { logger: createLogger('silent'), clock });
  return {
    gateways: [gateway],
    clock,
    advance,
    async close() {
      await gateway.close();
      await upstream.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

describe('on Redis', () => {
  let redis: TestRedis;
  before(async () => {
    redis = await startRedis();
  });
  after(() => redis?.stop());
  let prefixes = 0;
  describeMetering('two instances sharing Redis', async () => {
    const upstream = await startEchoUpstream('live');
    const { clock, advance } = aheadClock();
    const config = await gatewayConfig(
      {
        KEYGATE_DATA_DIR: '/tmp/keygate-test-unused',
        REDIS_URL: redis.url,
        KEYGATE_REDIS_PREFIX: `${redis.keyPrefix}m${++prefixes}:`,
      },
      upstream,
    );
    const logger = createLogger('silent');
    const gateways = [
      await openGateway(config, { logger, clock }),
      await openGateway(config, { logger, clock }),
    ];
    return {
      gateways,
      clock,
      advance,
      async close() {
        await Promise.all(gateways.map((g) => g.close()));
        await upstream.close();
      },
    };
  });
});
