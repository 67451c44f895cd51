import assert from 'node:assert/strict';
import type { IncomingHttpHeaders } from 'node:http';
import { createIdentitySigner, createIdentityVerifier, generateIdentityKeyPair } from '@keygate/identity';
import type { Principal } from '../../../src/auth/principal.ts';
import { setUpstreamHeaders, stripClientHeaders } from '../../../src/proxy/upstream-headers.ts';

describe('upstream headers', () => {
  it('strips credentials, every x-keygate-* header and forwarding headers, keeping the rest', () => {
    const headers: IncomingHttpHeaders = {
      authorization: 'Bearer kg_live_x',
      'proxy-authorization': 'Basic x',
      'x-keygate-identity': 'forged',
      'x-keygate-whatever': 'forged',
      'x-forwarded-for': '6.6.6.6',
      forwarded: 'for=6.6.6.6',
      'x-request-id': 'mine',
      'content-type': 'application/json',
      accept: '*/*',
    };
    stripClientHeaders(headers);
    assert.deepEqual(headers, { 'content-type': 'application/json', accept: '*/*' });
  });

  it('adds a signed identity bound to method and path, and convenience headers', async () => {
    const { privateJwk, publicJwk } = await generateIdentityKeyPair();
    const signer = await createIdentitySigner({ privateJwk });
    const principal = {
      key: { id: 'key_1', environment: 'test', scopes: ['article:r', 'stock:rw'] },
      secret: { id: 'sec_1' },
      requestId: 'req_1',
      clientIp: '2001:db8::1',
    } as unknown as Principal;
    const headers: IncomingHttpHeaders = { 'x-keygate-key-id': 'key_admin', host: 'gw.example' };
    await setUpstreamHeaders(
      headers,
      principal,
      { method: 'PUT', path: '/v2/stock/A?x=1', host: 'gw.example', encrypted: false },
      signer,
      'commerce',
    );
    assert.equal(headers['x-keygate-key-id'], 'key_1');
    assert.equal(headers['x-keygate-environment'], 'test');
    assert.equal(headers['x-keygate-scopes'], 'article:r,stock:rw');
    assert.equal(headers['x-forwarded-for'], '2001:db8::1');
    assert.equal(headers['x-forwarded-host'], 'gw.example');
    const verifier = createIdentityVerifier({ keys: { keys: [publicJwk] }, audience: 'commerce' });
    const identity = await verifier.verify(String(headers['x-keygate-identity']), {
      method: 'PUT',
      path: '/v2/stock/A?x=1',
    });
    assert.equal(identity.secretId, 'sec_1');
    await assert.rejects(
      verifier.verify(String(headers['x-keygate-identity']), { method: 'PUT', path: '/v2/stock/B' }),
      /another request/,
    );
  });
});
