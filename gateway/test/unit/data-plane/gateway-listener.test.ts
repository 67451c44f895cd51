import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import request from 'supertest';
import { createGatewayListener } from '../../../src/data-plane/gateway-listener.ts';
import { compileRoutes } from '../../../src/routes/route-matcher.ts';

const routes = compileRoutes({
  defaultUpstream: 'shop',
  upstreams: { shop: { audience: 'shop', live: 'http://127.0.0.1:1' } },
  routes: [{ method: 'GET', path: '/v2/things', scope: 'article:r' }],
});

describe('gateway listener', () => {
  it('answers 500 problem+json and logs the error when a handler throws, instead of crashing', async () => {
    const lines: string[] = [];
    const logger = pino(
      new Writable({
        write(chunk, _encoding, done) {
          lines.push(String(chunk));
          done();
        },
      }),
    );
    const listener = createGatewayListener({
      routes,
      proxied: () => {
        throw new Error('proxied broke');
      },
      controlPlane: () => {
        throw new Error('control plane broke');
      },
      logger,
    });
    for (const path of ['/v2/things', '/healthz']) {
      const res = await request(listener).get(path);
      assert.equal(res.status, 500, path);
      assert.equal(res.body.code, 'INTERNAL');
      assert.match(res.headers['content-type'] ?? '', /application\/problem\+json/);
    }
    assert.equal(lines.length, 2);
    assert.match(lines[0]!, /proxied broke/);
    assert.match(lines[1]!, /control plane broke/);
  });
});
