import assert from 'node:assert/strict';
import {
  Agent,
  createServer,
  get as httpGet,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { connect } from 'node:net';
import { freePort, type Service, startService, tempDir } from '../support/processes.ts';
import { startRedis, type TestRedis } from '../support/redis.ts';
import { json, type System, startSystem } from '../support/system.ts';
import { burst, type Sample, startTraffic, tally, waitUntil } from '../support/traffic.ts';

/** Kept small so the outage test needs no long waits. */
const STALENESS_MS = 3000;
const CHANNELS = '/v2/channels';

interface Key {
  id: string;
  prefix: string;
  secret: string;
}

function log(line: string): void {
  console.log(`      measured: ${line}`);
}

/** True when nothing accepts a TCP connection on `url`'s port. */
function refusesConnections(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(Number(new URL(url).port), '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

describe('scale-out: three gateway processes sharing one Redis', function () {
  this.timeout(120_000);
  let redis: TestRedis;
  let system: System;
  let admin: Key;
  /** Every token handed out in this suite, and every gateway's output, for the log check at the end. */
  const tokens: string[] = [];
  const outputs: Array<() => string> = [];

  const send = (instance: number, secret: string, method: string, path: string, body?: unknown) =>
    system.callOn(instance, secret, path, {
      method,
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  /** Creates a key through the API of gateway `instance`, with the suite's admin key. */
  async function createViaApi(instance: number, body: Record<string, unknown>): Promise<Key> {
    const res = await send(instance, admin.secret, 'POST', '/v2/auth/keys', { environment: 'live', ...body });
    assert.equal(res.status, 201, await res.clone().text());
    const key = await json<Key>(res);
    tokens.push(key.secret);
    return key;
  }

  async function createViaCli(name: string, scopes: string[], extra: string[] = []): Promise<Key> {
    const key = await system.createKey({ name, env: 'live', scopes, extra });
    tokens.push(key.secret);
    return key;
  }

  /** Calls until every gateway answered `path` for `secret` with 200 (each has verified and cached the key). */
  async function warm(secret: string, path = CHANNELS): Promise<void> {
    for (let instance = 0; instance < system.gateways.length; instance++) {
      const res = await system.callOn(instance, secret, path);
      assert.equal(res.status, 200, `gateway ${instance + 1}: ${await res.text()}`);
    }
  }

  before(async () => {
    redis = await startRedis({ persistent: true });
    system = await startSystem({
      gateways: 3,
      redisUrl: redis.url,
      gatewayEnv: { KEYGATE_REDIS_STALENESS_MS: String(STALENESS_MS), LOG_LEVEL: 'debug' },
    });
    for (const gateway of system.gateways) outputs.push(gateway.output);
    admin = await createViaCli('ops', ['auth:rw', 'article:r', 'order:rw'], ['--rate-limit', '100000']);
  });

  after(async () => {
    await system?.stop();
    await redis?.stop();
  });

  describe('GET /readyz on every instance', () => {
    it('responds 200 with the Redis store and both upstreams ok', async () => {
      for (const gateway of system.gateways) {
        const res = await fetch(`${gateway.url}/readyz`);
        const body = await json<{ checks: Record<string, string> }>(res);
        assert.equal(res.status, 200, JSON.stringify(body));
        assert.equal(body.checks.store, 'ok');
      }
    });

    it('keeps idle connections 65 s, above a load balancer’s usual 60 s', async () => {
      const headers = await new Promise<IncomingHttpHeaders>((resolve, reject) => {
        httpGet(`${system.gateway.url}/healthz`, { agent: new Agent({ keepAlive: true }) }, (res) => {
          res.resume();
          resolve(res.headers);
        }).on('error', reject);
      });
      assert.equal(headers['keep-alive'], 'timeout=65');
    });
  });

  describe('with a key revoked through gateway 1', () => {
    it('refuses all of 1,000 immediate calls on gateway 2, which had cached the key', async () => {
      const key = await createViaApi(0, {
        name: 'to-revoke',
        scopes: ['article:r'],
        rateLimit: { perMinute: 100_000 },
      });
      await warm(key.secret);
      const revoked = await send(0, admin.secret, 'DELETE', `/v2/auth/keys/${key.id}`);
      assert.equal(revoked.status, 200);
      const statuses = await burst(1000, 50, () => system.callOn(1, key.secret, CHANNELS));
      const accepted = statuses.filter((status) => status === 200).length;
      log(
        `revoke on gateway 1 → 1,000 calls on gateway 2: ${accepted} accepted, ${JSON.stringify(tally(statuses))}`,
      );
      assert.equal(accepted, 0);
      assert.deepEqual(tally(statuses), { 401: 1000 });
    });
  });

  describe('with the old secret of a rotated key closed through gateway 1', () => {
    it('refuses all of 1,000 immediate calls with it on gateway 2, and keeps serving the new secret', async () => {
      const key = await createViaApi(0, {
        name: 'rotating',
        scopes: ['article:r'],
        rateLimit: { perMinute: 100_000 },
      });
      await warm(key.secret);
      const rotated = await send(2, admin.secret, 'POST', `/v2/auth/keys/${key.id}:rotate`, {
        overlapDays: 1,
      });
      assert.equal(rotated.status, 200, await rotated.clone().text());
      const next = await json<Key>(rotated);
      tokens.push(next.secret);
      await warm(key.secret);
      await warm(next.secret);
      const closed = await send(0, admin.secret, 'POST', `/v2/auth/keys/${key.id}:close-old-secret`, {});
      assert.equal(closed.status, 200, await closed.clone().text());
      const statuses = await burst(1000, 50, () => system.callOn(1, key.secret, CHANNELS));
      const accepted = statuses.filter((status) => status === 200).length;
      log(`close-old-secret on gateway 1 → 1,000 calls on gateway 2: ${accepted} accepted`);
      assert.equal(accepted, 0);
      assert.deepEqual(tally(statuses), { 401: 1000 });
      assert.equal((await system.callOn(1, next.secret, CHANNELS)).status, 200);
    });
  });

  describe('with scopes narrowed through gateway 1', () => {
    it('refuses all of 1,000 immediate calls needing the removed scope on gateway 2', async () => {
      const key = await createViaApi(0, {
        name: 'narrowed',
        scopes: ['article:r', 'order:rw'],
        rateLimit: { perMinute: 100_000 },
      });
      const cart = await send(1, key.secret, 'POST', '/v2/carts', { channel: 'WEB_DE' });
      assert.equal(cart.status, 201, await cart.clone().text());
      const cartPath = `/v2/carts/${(await json<{ id: string }>(cart)).id}`;
      await warm(key.secret, cartPath);
      const narrowed = await send(0, admin.secret, 'POST', `/v2/auth/keys/${key.id}/scopes`, {
        scopes: ['article:r'],
      });
      assert.equal(narrowed.status, 200, await narrowed.clone().text());
      const statuses = await burst(1000, 50, () => system.callOn(1, key.secret, cartPath));
      const accepted = statuses.filter((status) => status !== 403).length;
      log(`scope narrowed on gateway 1 → 1,000 calls needing it on gateway 2: ${accepted} accepted`);
      assert.equal(accepted, 0);
      assert.equal((await system.callOn(1, key.secret, CHANNELS)).status, 200, 'the kept scope still works');
    });
  });

  describe('with a key allowing 30 calls per minute, rotated (two secrets)', () => {
    it('accepts exactly 30 of 90 calls spread over the three gateways and both secrets; 429 with Retry-After', async () => {
      const key = await createViaCli('limited', ['article:r'], ['--rate-limit', '30']);
      const rotated = await system.keygate('keys', 'rotate', key.id, '--json');
      assert.equal(rotated.code, 0, rotated.stderr);
      const next = JSON.parse(rotated.stdout) as Key;
      tokens.push(next.secret);
      const retryAfters: string[] = [];
      const statuses = await burst(90, 15, async (i) => {
        const res = await system.callOn(i % 3, i % 2 === 0 ? key.secret : next.secret, CHANNELS);
        if (res.status === 429) retryAfters.push(res.headers.get('retry-after') ?? '');
        return res;
      });
      log(`rate limit 30/min, 90 calls round-robin: ${JSON.stringify(tally(statuses))}`);
      assert.deepEqual(tally(statuses), { 200: 30, 429: 60 });
      assert.ok(
        retryAfters.every((value) => /^[1-9]\d*$/.test(value) && Number(value) <= 60),
        retryAfters.join(),
      );
    });
  });

  describe('usage, the API log and the activity log', () => {
    it('show the calls and changes made through every gateway', async () => {
      const key = await createViaApi(0, { name: 'shared-usage', scopes: ['article:r', 'order:r'] });
      const perInstance = [7, 5, 3];
      for (const [instance, calls] of perInstance.entries()) {
        const statuses = await burst(calls, 5, () => system.callOn(instance, key.secret, CHANNELS));
        assert.deepEqual(tally(statuses), { 200: calls });
      }
      const changed = await send(1, admin.secret, 'POST', `/v2/auth/keys/${key.id}/scopes`, {
        scopes: ['article:r'],
      });
      assert.equal(changed.status, 200);
      const rotated = await send(2, admin.secret, 'POST', `/v2/auth/keys/${key.id}:rotate`, {});
      assert.equal(rotated.status, 200);
      tokens.push((await json<Key>(rotated)).secret);
      const total = perInstance.reduce((sum, calls) => sum + calls, 0);
      await waitUntil('usage shows every call', async () => {
        const usage = await json<{ totals: { calls: number } }>(
          await send(1, admin.secret, 'GET', `/v2/auth/keys/${key.id}/usage`),
        );
        return usage.totals.calls === total;
      });
      // API log lines are flushed apart from the usage buckets, so they may land a flush later.
      let logged = 0;
      await waitUntil('the API log shows every call', async () => {
        const logs = await json<{ items: unknown[] }>(
          await send(2, admin.secret, 'GET', `/v2/auth/keys/${key.id}/logs?limit=100`),
        );
        logged = logs.items.length;
        return logged >= total;
      });
      assert.equal(logged, total);
      const activity = await json<{ items: Array<{ action: string }> }>(
        await send(0, admin.secret, 'GET', `/v2/auth/keys/${key.id}/activity`),
      );
      assert.deepEqual(
        activity.items.map((entry) => entry.action),
        ['key.rotated', 'key.scopes_changed', 'key.created'],
      );
    });
  });

  describe('a gateway receiving SIGTERM with a slow request in flight', () => {
    let slow: Server | undefined;
    let extra: Service | undefined;
    afterEach(async () => {
      await extra?.stop();
      slow?.closeAllConnections();
      await new Promise((resolve) => slow?.close(resolve));
    });

    it('finishes the request with 200, exits 0, and its usage is there after a restart', async () => {
      let release: () => void = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let arrived = 0;
      slow = createServer((req: IncomingMessage, res: ServerResponse) => {
        const answer = () => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"ok":true}');
        if (!req.url?.includes('slow=1')) return answer();
        arrived++;
        void held.then(answer);
      });
      await new Promise<void>((resolve) => slow?.listen(0, '127.0.0.1', resolve));
      const slowUrl = `http://127.0.0.1:${(slow.address() as { port: number }).port}`;
      const key = await createViaCli('shutdown', ['article:r']);
      const dir = tempDir();
      const env = {
        ...system.env,
        KEYGATE_DATA_DIR: dir.path,
        KEYGATE_UPSTREAM_LIVE: slowUrl,
        KEYGATE_UPSTREAM_TEST: slowUrl,
        // Only the flush at shutdown can write this instance's usage.
        KEYGATE_USAGE_FLUSH_MS: '600000',
        LOG_LEVEL: 'debug',
      };
      const gatewayPort = await freePort();
      const launch = () =>
        startService({
          name: 'gateway-extra',
          script: 'gateway/src/main.ts',
          port: gatewayPort,
          env: { ...env, GATEWAY_PORT: String(gatewayPort) },
        });
      try {
        extra = await launch();
        outputs.push(extra.output);
        const url = (path: string) => `${extra?.url}${path}`;
        const auth = { Authorization: `Bearer ${key.secret}` };
        for (let i = 0; i < 5; i++) assert.equal((await fetch(url(CHANNELS), { headers: auth })).status, 200);
        const inFlight = fetch(url(`${CHANNELS}?slow=1`), { headers: auth });
        await waitUntil('the slow request reached upstream', () => arrived === 1);
        extra.child.kill('SIGTERM');
        await waitUntil('the gateway stopped accepting connections', () => refusesConnections(url('/')));
        release();
        const res = await inFlight;
        assert.equal(res.status, 200);
        assert.deepEqual(await res.json(), { ok: true });
        assert.equal(await extra.exited, 0, extra.output());
        extra = await launch();
        outputs.push(extra.output);
        const usage = await json<{ totals: { calls: number } }>(
          await fetch(url(`/v2/auth/keys/${key.id}/usage`), {
            headers: { Authorization: `Bearer ${admin.secret}` },
          }),
        );
        assert.equal(usage.totals.calls, 6, 'the five quick calls and the slow one');
      } finally {
        dir.remove();
      }
    });
  });

  describe('with redis-server killed under traffic, then restarted on the same port', () => {
    it('serves verified keys for the staleness bound, then fails closed; recovers without a restart', async () => {
      const valid = await createViaCli('steady', ['article:r'], ['--rate-limit', '100000']);
      const revoked = await createViaCli('revoked-before', ['article:r'], ['--rate-limit', '100000']);
      const unseen = await createViaCli('never-seen', ['article:r']);
      await warm(valid.secret);
      await warm(revoked.secret);
      assert.equal((await system.keygate('keys', 'revoke', revoked.id)).code, 0);
      for (let instance = 0; instance < 3; instance++) {
        assert.equal((await system.callOn(instance, revoked.secret, CHANNELS)).status, 401);
      }
      const traffic = startTraffic(system, [
        { label: 'valid', secret: valid.secret, path: CHANNELS },
        { label: 'revoked', secret: revoked.secret, path: CHANNELS },
      ]);
      const ok =
        (label: string, instance: number, after = 0) =>
        (sample: Sample) =>
          sample.label === label && sample.instance === instance && sample.sentAt >= after;
      try {
        await waitUntil('traffic flows on every gateway', () =>
          [0, 1, 2].every((i) => traffic.samples.some((x) => ok('valid', i)(x) && x.status === 200)),
        );
        assert.equal((await send(0, admin.secret, 'GET', `/v2/auth/keys/${valid.id}`)).status, 200);
        const killedAt = Date.now();
        await redis.kill();
        const cliDuringOutage = system.keygate('keys', 'revoke', unseen.id);

        for (let instance = 0; instance < 3; instance++) {
          const res = await system.callOn(instance, unseen.secret, CHANNELS);
          assert.equal(res.status, 503, `gateway ${instance + 1}: a never-seen key gets 503`);
          assert.equal((await json(res)).code, 'STORE_UNAVAILABLE');
        }
        const change = await send(0, admin.secret, 'POST', `/v2/auth/keys/${valid.id}/scopes`, {
          scopes: ['article:r', 'order:r'],
        });
        assert.equal(change.status, 503, await change.clone().text());
        for (const gateway of system.gateways) {
          const ready = await fetch(`${gateway.url}/readyz`);
          assert.equal(ready.status, 503);
          assert.equal((await json<{ checks: Record<string, string> }>(ready)).checks.store, 'fail');
        }
        const metrics = await (await fetch(`${system.gateways[0]?.url}/metrics`)).text();
        assert.match(metrics, /^keygate_redis_up 0$/m);
        assert.match(metrics, /^keygate_rate_limiter_fallback 1$/m);
        assert.match(metrics, /^keygate_rate_limiter_fallback_total [1-9]\d*$/m);
        assert.match(metrics, /^keygate_redis_errors_total\{operation="readKeyVersion"\} [1-9]\d*$/m);
        assert.match(metrics, /^keygate_key_version_checks_total\{result="stale"\} [1-9]\d*$/m);

        await waitUntil('every gateway fails closed for the valid key', () =>
          [0, 1, 2].every((i) =>
            traffic.samples.some((x) => ok('valid', i, killedAt)(x) && x.status === 503),
          ),
        );
        const cli = await cliDuringOutage;
        assert.equal(cli.code, 2, cli.stdout);
        assert.match(cli.stderr, /STORE_UNAVAILABLE/);
        await traffic.stop();

        const afterKill = traffic.samples.filter((x) => x.sentAt >= killedAt);
        assert.equal(
          traffic.samples.filter((x) => x.label === 'revoked' && x.status === 200).length,
          0,
          'the key revoked before the outage is never accepted',
        );
        for (let instance = 0; instance < 3; instance++) {
          const mine = afterKill.filter((x) => x.label === 'valid' && x.instance === instance);
          const served = mine.filter((x) => x.status === 200);
          const lastServed = Math.max(...served.map((x) => x.sentAt)) - killedAt;
          const firstRefused =
            Math.min(...mine.filter((x) => x.status === 503).map((x) => x.sentAt)) - killedAt;
          log(
            `gateway ${instance + 1}: valid key served ${served.length} calls until +${lastServed} ms after the kill, 503 from +${firstRefused} ms`,
          );
          const early = mine.filter((x) => x.sentAt < killedAt + STALENESS_MS - 1000);
          assert.ok(
            early.length > 0 && early.every((x) => x.status === 200),
            `gateway ${instance + 1} early`,
          );
          const late = mine.filter((x) => x.sentAt > killedAt + STALENESS_MS + 250);
          assert.ok(
            late.every((x) => x.status === 503),
            `gateway ${instance + 1} after the bound`,
          );
          assert.ok(
            mine.every((x) => x.status === 200 || x.status === 503),
            JSON.stringify(tally(mine.map((x) => x.status))),
          );
        }
      } finally {
        await traffic.stop();
      }

      const restartedAt = Date.now();
      await redis.restart();
      for (let instance = 0; instance < 3; instance++) {
        await waitUntil(`gateway ${instance + 1} serves again`, async () => {
          const res = await system.callOn(instance, valid.secret, CHANNELS);
          await res.arrayBuffer();
          return res.status === 200;
        });
        log(
          `gateway ${instance + 1} serving again ${Date.now() - restartedAt} ms after redis-server restarted`,
        );
      }
      for (const gateway of system.gateways) {
        await waitUntil('ready again', async () => (await fetch(`${gateway.url}/readyz`)).status === 200);
      }
      const metrics = await (await fetch(`${system.gateways[0]?.url}/metrics`)).text();
      assert.match(metrics, /^keygate_redis_up 1$/m);
      const key = await json<{ status: string; scopes: string[] }>(
        await send(0, admin.secret, 'GET', `/v2/auth/keys/${unseen.id}`),
      );
      assert.equal(key.status, 'active', 'the refused CLI change left nothing behind');
      assert.equal((await send(0, admin.secret, 'DELETE', `/v2/auth/keys/${valid.id}`)).status, 200);
      assert.equal(
        (await system.callOn(1, valid.secret, CHANNELS)).status,
        401,
        'the revoke is seen on gateway 2',
      );
      assert.equal((await system.callOn(2, valid.secret, CHANNELS)).status, 401, 'and on gateway 3');
    });
  });

  describe("the gateways' output over this whole suite", () => {
    it('holds structured request logs with request ids and never a token or its secret part', () => {
      const text = outputs.map((output) => output()).join('\n');
      assert.match(text, /"requestId":"req_[^"]+".*"msg":"request"/);
      assert.ok(tokens.length >= 10);
      for (const token of tokens) {
        const secretPart = token.split('_').slice(3).join('_');
        assert.ok(secretPart.length >= 22, token);
        assert.equal(text.includes(token), false, 'a token was logged');
        assert.equal(text.includes(secretPart), false, 'the secret part of a token was logged');
        assert.equal(text.includes(secretPart.slice(0, 16)), false, 'a piece of a secret was logged');
      }
    });
  });
});
