import assert from 'node:assert/strict';
import request from 'supertest';
import { createHarness, type Harness } from '../../unit/keys/harness.ts';
import { createKeysApiApp } from './app.ts';

describe('/v2/auth/keys secret exposure', () => {
  let h: Harness;
  beforeEach(() => {
    h = createHarness();
  });
  afterEach(() => h.cleanup());

  describe('with every route called through a key’s life', () => {
    it('responds with a token only from create and rotate, and never with a hash', async () => {
      const app = createKeysApiApp(h);
      const manager = (await h.adminCreate({ name: 'manager', scopes: ['auth:rw', 'order:rw'] })).secret;
      const call = (method: 'get' | 'post' | 'delete', path: string, body?: object) => {
        const req = request(app)[method](`/v2/auth/keys${path}`).auth(manager, { type: 'bearer' });
        return body ? req.send(body) : req;
      };
      const created = await call('post', '/', { name: 'child', scopes: ['order:r'] });
      const id: string = created.body.id;
      const rotated = await call('post', `/${id}:rotate`, { overlapDays: 1 });
      const tokens = [manager, created.body.secret as string, rotated.body.secret as string];
      assert.ok(created.text.includes(tokens[1]!) && rotated.text.includes(tokens[2]!));
      assert.ok(!created.text.includes(manager) && !rotated.text.includes(tokens[1]!));

      await h.store.appendLogs([
        {
          id: 'req_a',
          keyId: id,
          secretId: rotated.body.rotation.secrets[0].id,
          at: new Date(h.clock()).toISOString(),
          method: 'GET',
          path: '/v2/orders',
          status: 200,
          latencyMs: 3,
          clientIp: '203.0.113.1',
        },
      ]);
      const others = [
        await call('get', '/'),
        await call('get', `/${id}`),
        await call('post', `/${id}/scopes`, { scopes: ['order:rw'] }),
        await call('get', `/${id}/usage`),
        await call('get', `/${id}/activity`),
        await call('get', `/${id}/logs`),
        await call('post', `/${id}:close-old-secret`),
        await call('delete', `/${id}`),
        await call('get', `/${id}/activity?limit=1`),
      ];
      for (const res of others) assert.ok(res.status < 300, `${res.status} ${res.text}`);
      for (const res of [created, rotated, ...others]) {
        assert.ok(!res.text.includes('fake$'), 'a hash leaked');
        assert.ok(!/"hash"|"lookup"/.test(res.text), 'a hash or lookup field leaked');
      }
      for (const res of others) {
        for (const token of tokens)
          assert.ok(!res.text.includes(token), `a token leaked in ${res.text.slice(0, 80)}`);
      }
      const activity = JSON.stringify(await h.store.listActivity({ limit: 1000 }));
      for (const token of tokens) assert.ok(!activity.includes(token));
      assert.ok(!activity.includes('fake$'));
    });
  });
});
