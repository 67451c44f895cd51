import assert from 'node:assert/strict';
import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { createLogger } from '../../../src/http/logger.ts';
import { type OpenedGateway, openGateway } from '../../../src/open-gateway.ts';
import { redisGatewayConfig } from '../../support/redis-gateway.ts';
import { startRedis, type TestRedis } from '../../support/redis-server.ts';
import { startEchoUpstream, type TestUpstream } from '../../support/upstream.ts';

const MAX_CONCURRENT = 2;

/** A GET of the catalogue with `token`, answered with its status, or aborted by `signal`. */
function get(base: string, token: string, signal?: AbortSignal): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${base}/v2/catalog/products`,
      { headers: { Authorization: `Bearer ${token}` }, signal },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('the per-key concurrency cap on Redis, with clients that leave during the key check', function () {
  this.timeout(30_000);
  let redis: TestRedis;
  let upstream: TestUpstream;
  let opened: OpenedGateway;
  let server: Server;
  let base: string;

  beforeEach(async () => {
    redis = await startRedis();
    upstream = await startEchoUpstream('live');
    const config = await redisGatewayConfig(redis, upstream, {
      KEYGATE_KEY_MAX_CONCURRENT: String(MAX_CONCURRENT),
    });
    const quiet = new Writable({ write: (_chunk, _encoding, done) => done() });
    opened = await openGateway(config, { logger: createLogger('warn', quiet) });
    server = opened.gateway.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(async () => {
    redis?.signal('SIGCONT');
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await opened?.close();
    await upstream?.close();
    await redis?.stop();
  });

  it('gives the slot back: the key is served afterwards, not refused with 429 for good', async () => {
    const { secret } = await opened.keyService.createKey(
      { type: 'admin', id: 'adm_test' },
      { name: 'leaving', environment: 'live', scopes: ['article:r'] },
      { sourceIp: null },
    );
    assert.equal(await get(base, secret), 200, 'verified and cached before Redis stops');

    // Redis frozen: each call waits in the key check for its rate-limit round trip. The clients
    // give up meanwhile, twice as many as the cap, and Redis answers once they are gone (well
    // within the command timeout, so every key check passes).
    redis.signal('SIGSTOP');
    const leaving = new AbortController();
    const left = Array.from({ length: 2 * MAX_CONCURRENT }, () =>
      get(base, secret, leaving.signal).then(
        (status) => `answered ${status}`,
        (error: Error) => error.name,
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 150));
    leaving.abort();
    assert.deepEqual(await Promise.all(left), Array(2 * MAX_CONCURRENT).fill('AbortError'));
    await new Promise((resolve) => setTimeout(resolve, 150));
    redis.signal('SIGCONT');
    await new Promise((resolve) => setTimeout(resolve, 300));

    const after: number[] = [];
    for (let i = 0; i < 3; i++) after.push(await get(base, secret));
    assert.deepEqual(after, [200, 200, 200]);
  });
});
