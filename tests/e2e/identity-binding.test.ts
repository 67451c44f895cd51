import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createIdentityVerifier, type IdentityVerifier } from '@keygate/identity';
import { json, type System, startSystem } from '../support/system.ts';

/** The claims of a compact JWS, unverified (the verifier checks them separately). */
function decodeJwt(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));
}

/** What the recording upstream saw of one request. */
interface Seen {
  url: string;
  headers: IncomingHttpHeaders;
}

/** A real HTTP upstream standing in for the test environment: records each request, answers 200. */
async function startRecordingUpstream(): Promise<{ url: string; seen: Seen[]; close: () => Promise<void> }> {
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"recorded":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

for (const binding of ['key', 'request'] as const) {
  describe(`KEYGATE_IDENTITY_BINDING=${binding} with real gateway and commerce processes`, function () {
    this.timeout(120_000);
    let system: System;
    let recorder: Awaited<ReturnType<typeof startRecordingUpstream>>;
    let verifier: IdentityVerifier;
    let admin: { id: string; secret: string };

    before(async () => {
      recorder = await startRecordingUpstream();
      // Live keys reach the real commerce process; test keys reach the recording upstream.
      system = await startSystem({
        gatewayEnv: { KEYGATE_IDENTITY_BINDING: binding, KEYGATE_UPSTREAM_TEST: recorder.url },
      });
      verifier = createIdentityVerifier({
        keys: new URL(`${system.gateway.url}/.well-known/jwks.json`),
        audience: 'commerce',
      });
      // auth:rw and what it grants: a key may give another only scopes it holds itself.
      admin = await system.createKey({ name: 'ops', env: 'test', scopes: ['auth:rw', 'article:rw'] });
    });
    after(async () => {
      await system?.stop();
      await recorder?.close();
    });

    /** Calls `path` `times` times with `secret`; returns the identity headers the recorder got for them. */
    async function callRecorded(secret: string, times: number, path = '/v2/catalog/products') {
      const from = recorder.seen.length;
      for (let i = 0; i < times; i++) {
        const res = await system.call(secret, `${path}?n=${i}`);
        assert.equal(res.status, 200, await res.text());
      }
      return recorder.seen.slice(from).map((seen) => ({
        url: seen.url,
        requestId: String(seen.headers['x-request-id']),
        assertion: String(seen.headers['x-keygate-identity']),
      }));
    }

    it('commerce answers a live key on every request', async () => {
      const key = await system.createKey({ name: 'shop', env: 'live', scopes: ['article:r', 'order:rw'] });
      for (let i = 0; i < 3; i++) {
        const res = await system.call(key.secret, `/v2/catalog/products?limit=1&n=${i}`, {
          headers: { 'X-Channel': 'WEB_DE' },
        });
        assert.equal(res.status, 200, await res.clone().text());
        assert.ok(Array.isArray((await json<{ data: unknown[] }>(res)).data));
      }
      const cart = await system.call(key.secret, '/v2/carts', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Channel': 'WEB_DE' },
        body: JSON.stringify({ channel: 'WEB_DE' }),
      });
      assert.equal(cart.status, 201, await cart.text());
    });

    if (binding === 'key') {
      it('sends one reusable assertion per key that names no request; each call keeps its own X-Request-Id', async () => {
        const key = await system.createKey({ name: 'reuse', env: 'test', scopes: ['article:r'] });
        const seen = await callRecorded(key.secret, 4);
        assert.equal(new Set(seen.map((one) => one.assertion)).size, 1);
        assert.equal(new Set(seen.map((one) => one.requestId)).size, 4);
        const claims = decodeJwt(seen[0]!.assertion);
        assert.equal(claims.sub, key.id);
        assert.deepEqual([claims.htm, claims.htp, claims.jti], [undefined, undefined, undefined]);
        assert.equal(Number(claims.exp) - Number(claims.iat), 60);
        for (const one of seen) {
          const identity = await verifier.verify(one.assertion, { method: 'GET', path: one.url });
          assert.deepEqual(
            [identity.keyId, identity.environment, identity.scopes, identity.requestId],
            [key.id, 'test', ['article:r'], undefined],
          );
          assert.match(identity.secretId, /^sec_/);
        }
        const other = await system.createKey({ name: 'other', env: 'test', scopes: ['article:r'] });
        const [otherSeen] = await callRecorded(other.secret, 1);
        assert.notEqual(otherSeen!.assertion, seen[0]!.assertion, 'another key gets its own assertion');
      });

      it('sends a new assertion on the first call after a scope change', async () => {
        const key = await system.createKey({ name: 'scoped', env: 'test', scopes: ['article:r'] });
        const [before] = await callRecorded(key.secret, 1);
        const changed = await system.call(admin.secret, `/v2/auth/keys/${key.id}/scopes`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ scopes: ['article:rw'] }),
        });
        assert.equal(changed.status, 200, await changed.text());
        const [after] = await callRecorded(key.secret, 1);
        assert.notEqual(after!.assertion, before!.assertion);
        assert.deepEqual(decodeJwt(after!.assertion).scp, ['article:rw']);
      });

      it('refuses the very next request after an operator revokes the key, and never reaches the upstream', async () => {
        const key = await system.createKey({ name: 'doomed', env: 'test', scopes: ['article:r'] });
        await callRecorded(key.secret, 2);
        const revoked = await system.keygate('keys', 'revoke', key.id);
        assert.equal(revoked.code, 0, revoked.stderr);
        const reached = recorder.seen.length;
        const res = await system.call(key.secret, '/v2/catalog/products?after=revoke');
        assert.equal(res.status, 401, await res.clone().text());
        assert.equal((await json<{ code: string }>(res)).code, 'KEY_REVOKED');
        assert.equal(recorder.seen.length, reached, 'the revoked call never reached the upstream');
      });
    } else {
      it('sends a fresh assertion per call, bound to its method, path and request id, accepted once', async () => {
        const key = await system.createKey({ name: 'per-call', env: 'test', scopes: ['article:r'] });
        const seen = await callRecorded(key.secret, 3);
        assert.equal(new Set(seen.map((one) => one.assertion)).size, 3);
        for (const one of seen) {
          const identity = await verifier.verify(one.assertion, { method: 'GET', path: one.url });
          assert.equal(identity.requestId, one.requestId);
          assert.equal(identity.path, one.url);
          await assert.rejects(verifier.verify(one.assertion, { method: 'GET', path: one.url }), {
            code: 'IDENTITY_REPLAYED',
          });
        }
      });

      it('refuses the very next request after an operator revokes the key', async () => {
        const key = await system.createKey({ name: 'doomed', env: 'test', scopes: ['article:r'] });
        await callRecorded(key.secret, 1);
        const revoked = await system.keygate('keys', 'revoke', key.id);
        assert.equal(revoked.code, 0, revoked.stderr);
        const res = await system.call(key.secret, '/v2/catalog/products');
        assert.equal(res.status, 401);
        assert.equal((await json<{ code: string }>(res)).code, 'KEY_REVOKED');
      });
    }
  });
}
