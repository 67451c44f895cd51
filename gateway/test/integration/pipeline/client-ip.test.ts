import assert from 'node:assert/strict';
import request from 'supertest';
import { startTestGateway, type TestGateway } from '../../support/gateway.ts';
import { seedKey } from '../../support/keys.ts';

const PRODUCTS = '/v2/catalog/products';

describe('key pipeline: client IP and allowlist', () => {
  let gw: TestGateway;
  afterEach(() => gw.stop());

  const call = (token: string, forwardedFor?: string) => {
    const req = request(gw.app).get(PRODUCTS).set('Authorization', `Bearer ${token}`);
    return forwardedFor === undefined ? req : req.set('X-Forwarded-For', forwardedFor);
  };

  /** The X-Forwarded-Proto and -Host each request reaching the live upstream carried. */
  const forwardedUpstream = () =>
    gw.live.seen.map(({ headers }) => [headers['x-forwarded-proto'], headers['x-forwarded-host']]);

  describe('GET /v2/catalog/products from an untrusted peer (no trusted proxies)', () => {
    beforeEach(async () => {
      gw = await startTestGateway();
    });

    describe('with a key allowing only 10.0.0.0/8 and a spoofed X-Forwarded-For', () => {
      it('responds 403 IP_NOT_ALLOWED: the header is ignored', async () => {
        const { token } = await seedKey(gw.store, gw.hasher, { ipAllowlist: ['10.0.0.0/8'] });
        const res = await call(token, '10.1.2.3');
        assert.equal(res.status, 403);
        assert.equal(res.body.code, 'IP_NOT_ALLOWED');
        assert.equal(gw.live.seen.length, 0);
      });
    });

    describe('with a key allowing the loopback range', () => {
      it('passes and forwards only the socket address upstream', async () => {
        const { token } = await seedKey(gw.store, gw.hasher, { ipAllowlist: ['127.0.0.0/8'] });
        const res = await call(token, '203.0.113.9, 10.1.2.3');
        assert.equal(res.status, 200);
        assert.equal(gw.live.seen[0]?.headers['x-forwarded-for'], '127.0.0.1');
      });
    });

    describe('with a client-sent X-Forwarded-Proto and X-Forwarded-Host', () => {
      it('tells the upstream the socket scheme and the Host the client sent, not the spoofed values', async () => {
        const { token } = await seedKey(gw.store, gw.hasher);
        const res = await call(token)
          .set('Host', 'gw.example')
          .set('X-Forwarded-Proto', 'https')
          .set('X-Forwarded-Host', 'evil.example');
        assert.equal(res.status, 200);
        assert.deepEqual(forwardedUpstream(), [['http', 'gw.example']]);
      });
    });

    describe('with a key allowing the IPv4-mapped form of loopback', () => {
      it('passes (::ffff:127.0.0.1/104 is 127.0.0.0/8)', async () => {
        const { token } = await seedKey(gw.store, gw.hasher, { ipAllowlist: ['::ffff:127.0.0.0/104'] });
        assert.equal((await call(token)).status, 200);
      });
    });
  });

  describe('GET /v2/catalog/products through a trusted proxy (127.0.0.1)', () => {
    beforeEach(async () => {
      gw = await startTestGateway({ env: { KEYGATE_TRUSTED_PROXIES: '127.0.0.1,192.0.2.0/24' } });
    });

    describe('with an IPv6 client inside the allowed 2001:db8::/32', () => {
      it('passes and forwards the client address', async () => {
        const { token } = await seedKey(gw.store, gw.hasher, { ipAllowlist: ['2001:db8::/32'] });
        const res = await call(token, '2001:db8::5');
        assert.equal(res.status, 200);
        assert.equal(gw.live.seen[0]?.headers['x-forwarded-for'], '2001:db8::5');
      });
    });

    describe('with an IPv6 client outside the allowlist', () => {
      it('responds 403 IP_NOT_ALLOWED', async () => {
        const { token } = await seedKey(gw.store, gw.hasher, { ipAllowlist: ['2001:db8::/32'] });
        const res = await call(token, '2001:db9::5');
        assert.equal(res.status, 403);
        assert.equal(res.body.code, 'IP_NOT_ALLOWED');
      });
    });

    describe('with an IPv4-mapped client address', () => {
      it('matches it against an IPv4 range', async () => {
        const { token } = await seedKey(gw.store, gw.hasher, { ipAllowlist: ['10.0.0.0/8'] });
        const res = await call(token, '::ffff:10.9.8.7');
        assert.equal(res.status, 200);
        assert.equal(gw.live.seen[0]?.headers['x-forwarded-for'], '10.9.8.7');
      });
    });

    describe('with a chain whose left-most entry is spoofed', () => {
      it('takes the right-most untrusted hop, skipping trusted ones', async () => {
        const { token } = await seedKey(gw.store, gw.hasher, { ipAllowlist: ['198.51.100.0/24'] });
        const ok = await call(token, '10.1.2.3, 198.51.100.7, 192.0.2.10');
        assert.equal(ok.status, 200);
        assert.equal(gw.live.seen[0]?.headers['x-forwarded-for'], '198.51.100.7');
        const refused = await call(token, '198.51.100.7, 10.1.2.3');
        assert.equal(refused.status, 403);
      });
    });

    describe('with the proxy reporting the scheme and host the client used', () => {
      it('tells the upstream https and the public host, as the trusted proxy reported them', async () => {
        const { token } = await seedKey(gw.store, gw.hasher);
        const res = await call(token, '198.51.100.7')
          .set('Host', 'gateway.internal:8080')
          .set('X-Forwarded-Proto', 'HTTPS, http')
          .set('X-Forwarded-Host', 'api.shop.example');
        assert.equal(res.status, 200);
        assert.deepEqual(forwardedUpstream(), [['https', 'api.shop.example']]);
        assert.equal(gw.live.seen[0]?.headers['x-forwarded-for'], '198.51.100.7');
      });

      it('keeps the socket scheme and Host when the proxy sends neither, or a scheme it cannot be', async () => {
        const { token } = await seedKey(gw.store, gw.hasher);
        assert.equal((await call(token).set('Host', 'gw.example')).status, 200);
        assert.equal(
          (await call(token).set('Host', 'gw.example').set('X-Forwarded-Proto', 'gopher')).status,
          200,
        );
        assert.deepEqual(forwardedUpstream(), [
          ['http', 'gw.example'],
          ['http', 'gw.example'],
        ]);
      });
    });
  });
});
