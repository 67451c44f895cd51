import assert from 'node:assert/strict';
import { createIdentitySigner, createIdentityVerifier, generateIdentityKeyPair } from '@keygate/identity';
import type { Principal } from '../../../src/auth/principal.ts';
import {
  assertUnambiguousFraming,
  framingOf,
  identityOf,
  upstreamHeaderList,
} from '../../../src/proxy/upstream-headers.ts';

const principal = {
  key: { id: 'key_1', environment: 'test', scopes: ['article:r', 'stock:rw'] },
  secret: { id: 'sec_1' },
  requestId: 'req_1',
  clientIp: '2001:db8::1',
} as unknown as Principal;

const request = {
  method: 'PUT',
  path: '/v2/stock/A?x=1',
  host: 'gw.example',
  scheme: 'http' as const,
  framing: null,
};

/** The flat [name, value, …] list as pairs, for readable assertions. */
function pairsOf(list: string[]): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (let i = 0; i < list.length; i += 2) pairs.push([list[i]!, list[i + 1]!]);
  return pairs;
}

describe('upstream headers', () => {
  it('strips credentials, every x-keygate-* header, forwarding and hop-by-hop headers, keeping the rest', () => {
    const raw = [
      'Authorization',
      'Bearer kg_live_x',
      'Proxy-Authorization',
      'Basic x',
      'X-Keygate-Identity',
      'forged',
      'x-keygate-whatever',
      'forged',
      'X-Forwarded-For',
      '6.6.6.6',
      'Forwarded',
      'for=6.6.6.6',
      'X-Request-Id',
      'mine',
      'Host',
      'gw.example',
      'Connection',
      'keep-alive, X-Secret-Hop',
      'X-Secret-Hop',
      'hop',
      'Keep-Alive',
      'timeout=5',
      'Content-Type',
      'application/json',
      'Accept',
      '*/*',
      'Cookie',
      'a=1',
      'Cookie',
      'b=2',
    ];
    const pairs = pairsOf(upstreamHeaderList(raw, principal, request, 'signed', 'upstream:1'));
    const clientPart = pairs.slice(
      0,
      pairs.findIndex(([name]) => name === 'host'),
    );
    assert.deepEqual(clientPart, [
      ['Content-Type', 'application/json'],
      ['Accept', '*/*'],
      ['Cookie', 'a=1'],
      ['Cookie', 'b=2'],
    ]);
  });

  it("sends the gateway's trace context in place of the client's when tracing is on, and the client's when off", () => {
    const raw = ['traceparent', '00-client', 'TraceState', 'vendor=client', 'Accept', '*/*'];
    const traced = pairsOf(
      upstreamHeaderList(
        raw,
        principal,
        { ...request, trace: { traceparent: '00-gateway', tracestate: 'vendor=gateway' } },
        'jwt',
        'up:1',
      ),
    );
    assert.deepEqual(
      traced.filter(([name]) => /^trace/i.test(name)),
      [
        ['traceparent', '00-gateway'],
        ['tracestate', 'vendor=gateway'],
      ],
    );
    assert.ok(traced.some(([name]) => name === 'Accept'));
    const stateless = pairsOf(
      upstreamHeaderList(
        raw,
        principal,
        { ...request, trace: { traceparent: '00-gateway', tracestate: undefined } },
        'jwt',
        'up:1',
      ),
    );
    assert.deepEqual(
      stateless.filter(([name]) => /^trace/i.test(name)),
      [['traceparent', '00-gateway']],
    );
    const untraced = pairsOf(upstreamHeaderList(raw, principal, request, 'jwt', 'up:1'));
    assert.deepEqual(
      untraced.filter(([name]) => /^trace/i.test(name)),
      [
        ['traceparent', '00-client'],
        ['TraceState', 'vendor=client'],
      ],
    );
  });

  it('strips headers an upstream framework could take as another method, path or client address', () => {
    const spoofing = [
      'X-HTTP-Method-Override',
      'X-HTTP-Method',
      'X-Method-Override',
      'X-Original-Method',
      'X-Original-URL',
      'X-Rewrite-URL',
      'X-Forwarded-Prefix',
      'X-Forwarded-Server',
      'X-Client-IP',
      'True-Client-IP',
      'CF-Connecting-IP',
    ];
    const raw = [
      ...spoofing.flatMap((name) => [name, 'DELETE /v2/auth/keys/key_x 6.6.6.6']),
      'Accept',
      '*/*',
    ];
    const names = pairsOf(upstreamHeaderList(raw, principal, request, 'signed', 'upstream:1')).map(([name]) =>
      name.toLowerCase(),
    );
    assert.deepEqual(
      spoofing.filter((name) => names.includes(name.toLowerCase())),
      [],
    );
    assert.ok(names.includes('accept'));
  });

  it('drops the client framing headers, even ones its Connection lists, and states the parsed framing', () => {
    const raw = [
      'Connection',
      'keep-alive, content-length, transfer-encoding',
      'Transfer-Encoding',
      'gzip',
      'Content-Length',
      '12',
      'Content-Type',
      'application/octet-stream',
    ];
    const framed = { ...request, framing: framingOf({ 'content-length': '12' }) };
    const pairs = pairsOf(upstreamHeaderList(raw, principal, framed, 'signed', 'upstream:1'));
    assert.deepEqual(pairs.slice(0, 2), [
      ['Content-Type', 'application/octet-stream'],
      ['content-length', '12'],
    ]);
    assert.equal(pairs.filter(([name]) => /^(content-length|transfer-encoding)$/i.test(name)).length, 1);
    // A chunked body's framing is left to the client library, which chunks a body of unknown length.
    const chunked = { ...request, framing: framingOf({ 'transfer-encoding': 'gzip, chunked' }) };
    const chunkedPairs = pairsOf(upstreamHeaderList(raw, principal, chunked, 'signed', 'upstream:1'));
    assert.equal(
      chunkedPairs.filter(([name]) => /^(content-length|transfer-encoding)$/i.test(name)).length,
      0,
    );
  });

  it('frames a client transfer coding as chunked, a Content-Length as itself, and no framing as no body', () => {
    assert.deepEqual(framingOf({ 'transfer-encoding': 'chunked' }), ['transfer-encoding', 'chunked']);
    assert.deepEqual(framingOf({ 'content-length': '5' }), ['content-length', '5']);
    assert.equal(framingOf({}), null);
  });

  it('refuses a transfer coding other than plain chunked as 400 MALFORMED_REQUEST', () => {
    assertUnambiguousFraming({ 'transfer-encoding': 'Chunked' });
    assertUnambiguousFraming({ 'content-length': '3' });
    for (const coding of ['gzip, chunked', 'chunked, chunked', 'identity']) {
      assert.throws(
        () => assertUnambiguousFraming({ 'transfer-encoding': coding }),
        (error: { code?: string }) => error.code === 'MALFORMED_REQUEST',
        coding,
      );
    }
  });

  it('adds a signed identity bound to method and path, and convenience headers', async () => {
    const { privateJwk, publicJwk } = await generateIdentityKeyPair();
    const signer = await createIdentitySigner({ privateJwk });
    const assertion = await signer.sign(identityOf(principal, request.method, request.path), 'commerce');
    const raw = ['X-Keygate-Key-Id', 'key_admin', 'Host', 'gw.example'];
    const headers = Object.fromEntries(
      pairsOf(upstreamHeaderList(raw, principal, request, assertion, 'up:1')),
    );
    assert.equal(headers.host, 'up:1');
    assert.equal(headers['x-keygate-identity'], assertion);
    assert.equal(headers['x-keygate-key-id'], 'key_1');
    assert.equal(headers['x-keygate-environment'], 'test');
    assert.equal(headers['x-keygate-scopes'], 'article:r,stock:rw');
    assert.equal(headers['x-request-id'], 'req_1');
    assert.equal(headers['x-forwarded-for'], '2001:db8::1');
    assert.equal(headers['x-forwarded-proto'], 'http');
    assert.equal(headers['x-forwarded-host'], 'gw.example');
    const verifier = createIdentityVerifier({ keys: { keys: [publicJwk] }, audience: 'commerce' });
    const identity = await verifier.verify(assertion, { method: 'PUT', path: '/v2/stock/A?x=1' });
    assert.equal(identity.secretId, 'sec_1');
    await assert.rejects(
      verifier.verify(assertion, { method: 'PUT', path: '/v2/stock/B' }),
      /another request/,
    );
  });
});
