import assert from 'node:assert/strict';
import fc from 'fast-check';
import request from 'supertest';
import { createKeyService } from '../../../src/keys/key-service.ts';
import { createKeysRouter } from '../../../src/keys-api/router.ts';
import { createLocalKeyEvents } from '../../../src/model/events.ts';
import { createCountingHasher } from '../../support/counting-hasher.ts';
import { startTestGateway, type TestGateway } from '../../support/gateway.ts';
import { seedKey } from '../../support/keys.ts';
import { createMemoryStore } from '../../support/memory-store.ts';

describe('properties: JSON bodies of the key-management API', () => {
  let gw: TestGateway;
  let token: string;
  before(async () => {
    const store = createMemoryStore();
    const hasher = createCountingHasher();
    const keyService = createKeyService({ store, hasher, events: createLocalKeyEvents(), clock: Date.now });
    gw = await startTestGateway({ store, hasher, keysRouter: createKeysRouter({ keyService }) });
    ({ token } = await seedKey(store, hasher, { scopes: ['auth:rw', 'article:r'] }));
  });
  after(() => gw.stop());

  const keyFields = fc.record(
    {
      name: fc.oneof(fc.string(), fc.integer(), fc.constant(null)),
      environment: fc.oneof(fc.constantFrom('live', 'test'), fc.string()),
      scopes: fc.oneof(
        fc.array(fc.oneof(fc.constantFrom('article:r', 'auth:rw', 'order:rw'), fc.string())),
        fc.jsonValue(),
      ),
      expiresAt: fc.oneof(
        fc.string(),
        fc.constant(null),
        fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
      ),
      ipAllowlist: fc.oneof(fc.array(fc.string()), fc.jsonValue()),
      rateLimit: fc.oneof(fc.record({ perMinute: fc.oneof(fc.integer(), fc.double()) }), fc.jsonValue()),
    },
    { requiredKeys: [] },
  );

  it('answers any body with 201 or a 4xx problem+json, never 5xx, and creates nothing when it refuses', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          keyFields.map((body) => JSON.stringify(body)),
          fc.jsonValue().map((value) => JSON.stringify(value)),
          fc.string(),
        ),
        async (body) => {
          const before = gw.store.keys.size;
          const res = await request(gw.app)
            .post('/v2/auth/keys')
            .set('Authorization', `Bearer ${token}`)
            .set('Content-Type', 'application/json')
            .send(body);
          assert.ok(res.status < 500, `${res.status} for ${body}: ${res.text}`);
          if (res.status === 201) return;
          assert.ok(res.status >= 400, `${res.status} for ${body}`);
          assert.match(res.headers['content-type'] ?? '', /^application\/problem\+json/);
          assert.equal(res.body.status, res.status);
          assert.equal(gw.store.keys.size, before, `a refused body (${res.status}) created a key: ${body}`);
        },
      ),
      { numRuns: 300 },
    );
  });
});
