import assert from 'node:assert/strict';
import request from 'supertest';
import { startTestGateway, type TestGateway } from '../../support/gateway.ts';
import { seedKey } from '../../support/keys.ts';
import { closedPortUrl, startEchoUpstream, type TestUpstream } from '../../support/upstream.ts';

describe('key pipeline: upstream failures', () => {
  let gw: TestGateway;
  let hanging: TestUpstream | undefined;
  afterEach(async () => {
    await gw.stop();
    await hanging?.close();
    hanging = undefined;
  });

  describe('GET /v2/catalog/products', () => {
    describe('with the live upstream refusing connections', () => {
      it('responds 502 UPSTREAM_UNAVAILABLE as problem+json', async () => {
        gw = await startTestGateway({ upstreamUrls: { live: await closedPortUrl() } });
        const { token } = await seedKey(gw.store, gw.hasher);
        const res = await request(gw.app).get('/v2/catalog/products').set('Authorization', `Bearer ${token}`);
        assert.equal(res.status, 502);
        assert.equal(res.body.code, 'UPSTREAM_UNAVAILABLE');
        assert.match(res.headers['content-type'] ?? '', /application\/problem\+json/);
        assert.equal(res.body.instance, res.headers['x-request-id']);
        assert.doesNotMatch(JSON.stringify(res.body), /ECONNREFUSED|127\.0\.0\.1/);
      });
    });

    describe('with the live upstream never answering', () => {
      it('responds 504 UPSTREAM_TIMEOUT after the configured timeout', async () => {
        hanging = await startEchoUpstream('hang', { hang: true });
        gw = await startTestGateway({
          upstreamUrls: { live: hanging.url },
          env: { KEYGATE_UPSTREAM_TIMEOUT_MS: '150' },
        });
        const { token } = await seedKey(gw.store, gw.hasher);
        const res = await request(gw.app).get('/v2/catalog/products').set('Authorization', `Bearer ${token}`);
        assert.equal(res.status, 504);
        assert.equal(res.body.code, 'UPSTREAM_TIMEOUT');
        assert.equal(hanging.seen.length, 1, 'the request did reach the upstream');
        const metrics = await request(gw.app).get('/metrics');
        assert.match(
          metrics.text,
          /keygate_upstream_duration_seconds_count\{[^}]*outcome="timeout"[^}]*\} 1/,
        );
      });
    });
  });
});
