import assert from 'node:assert/strict';
import request from 'supertest';
import { createLogger } from '../../../src/http/logger.ts';
import { createKeyService } from '../../../src/keys/key-service.ts';
import { createIdempotencyStep } from '../../../src/keys-api/idempotency.ts';
import { createKeysRouter } from '../../../src/keys-api/router.ts';
import { createLocalKeyEvents } from '../../../src/model/events.ts';
import { createCountingHasher } from '../../support/counting-hasher.ts';
import { startTestGateway, type TestGateway } from '../../support/gateway.ts';
import { seedKey } from '../../support/keys.ts';
import { createMemoryStore } from '../../support/memory-store.ts';

describe('Idempotency-Key on /v2/auth/keys with a failing store', () => {
  let gw: TestGateway;
  let token: string;
  let keyId: string;
  beforeEach(async () => {
    const store = createMemoryStore();
    const hasher = createCountingHasher();
    const keyService = createKeyService({ store, hasher, events: createLocalKeyEvents(), clock: Date.now });
    const idempotency = createIdempotencyStep({ store, clock: Date.now, logger: createLogger('silent') });
    gw = await startTestGateway({ store, hasher, keysRouter: createKeysRouter({ keyService, idempotency }) });
    const seeded = await seedKey(gw.store, gw.hasher, { scopes: ['auth:rw', 'order:rw'] });
    token = seeded.token;
    keyId = seeded.key.id;
  });
  afterEach(() => gw.stop());

  const post = (path: string, body: object) =>
    request(gw.app)
      .post(`/v2/auth/keys${path}`)
      .set('Authorization', `Bearer ${token}`)
      .set('Idempotency-Key', 'retry-after-5xx')
      .send(body);

  describe('a 5xx answer', () => {
    it('is not kept: the retry with the same key runs and changes the scopes', async () => {
      gw.store.failing.add('commitChange');
      const failed = await post(`/${keyId}/scopes`, { scopes: ['auth:rw', 'order:r'] });
      assert.ok(failed.status >= 500, `${failed.status} ${failed.text}`);
      gw.store.failing.delete('commitChange');
      const retried = await post(`/${keyId}/scopes`, { scopes: ['auth:rw', 'order:r'] });
      assert.equal(retried.status, 200, retried.text);
      assert.equal(retried.headers['idempotent-replayed'], undefined);
      assert.deepEqual(retried.body.scopes, ['auth:rw', 'order:r']);
      const again = await post(`/${keyId}/scopes`, { scopes: ['auth:rw', 'order:r'] });
      assert.equal(again.headers['idempotent-replayed'], 'true');
    });
  });

  describe('a lease the store cannot write', () => {
    it('answers 5xx and runs nothing: no change without its record', async () => {
      gw.store.failing.add('swapIdempotency');
      const res = await post('/', { name: 'child', scopes: ['order:r'] });
      assert.ok(res.status >= 500, `${res.status} ${res.text}`);
      assert.equal((await gw.store.listKeys()).length, 1, 'only the seeded key');
    });
  });
});
