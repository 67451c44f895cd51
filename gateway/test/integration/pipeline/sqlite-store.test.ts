import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createIdentitySigner, generateIdentityKeyPair } from '@keygate/identity';
import request from 'supertest';
import { createApp, type GatewayApp } from '../../../src/app.ts';
import { loadConfig } from '../../../src/config.ts';
import { createArgon2Hasher } from '../../../src/keys/hasher.ts';
import { createKeyService, type KeyService } from '../../../src/keys/key-service.ts';
import { createLocalKeyEvents } from '../../../src/model/events.ts';
import type { Actor } from '../../../src/model/model.ts';
import { openSqliteKeyStore } from '../../../src/store/sqlite/sqlite-store.ts';
import type { KeyStore } from '../../../src/store/store.ts';
import { type CountingHasher, createCountingHasher } from '../../support/counting-hasher.ts';
import { startEchoUpstream, type TestUpstream } from '../../support/upstream.ts';

const ADMIN: Actor = { type: 'admin', id: 'adm_test' };
const CLI = { sourceIp: null };

describe('gateway on the SQLite store with the real key service, router and argon2', () => {
  let file: string;
  let store: KeyStore;
  let keyService: KeyService;
  let hasher: CountingHasher;
  let gateway: GatewayApp;
  let live: TestUpstream;
  let test: TestUpstream;

  beforeEach(async () => {
    [live, test] = await Promise.all([startEchoUpstream('live'), startEchoUpstream('test')]);
    file = join(mkdtempSync(join(tmpdir(), 'keygate-gw-')), 'gateway.db');
    store = openSqliteKeyStore(file);
    hasher = createCountingHasher(createArgon2Hasher());
    const events = createLocalKeyEvents();
    keyService = createKeyService({ store, hasher, events, clock: Date.now });
    const config = loadConfig({ KEYGATE_UPSTREAM_LIVE: live.url, KEYGATE_UPSTREAM_TEST: test.url });
    const signer = await createIdentitySigner({ privateJwk: (await generateIdentityKeyPair()).privateJwk });
    gateway = createApp({ config, store, hasher, events, signer, keyService });
  });

  afterEach(async () => {
    await gateway.close();
    await store.close();
    await Promise.all([live.close(), test.close()]);
  });

  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

  it('creates a key through /v2/auth/keys, proxies with it, and refuses it right after an API revoke', async () => {
    const admin = await keyService.createKey(
      ADMIN,
      { name: 'ops', environment: 'live', scopes: ['auth:rw', 'article:rw'] },
      CLI,
    );
    const created = await request(gateway.app)
      .post('/v2/auth/keys')
      .set(bearer(admin.secret))
      .send({ name: 'shop', scopes: ['article:r'] });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.ok(created.headers.ratelimit);
    const token = created.body.secret as string;

    for (let i = 0; i < 5; i++) {
      assert.equal((await request(gateway.app).get('/v2/catalog/products').set(bearer(token))).status, 200);
    }
    assert.equal(live.seen.length, 5);
    assert.equal(hasher.verifications, 2, 'one argon2 verification per secret');

    const revoked = await request(gateway.app)
      .delete(`/v2/auth/keys/${created.body.id}`)
      .set(bearer(admin.secret));
    assert.equal(revoked.status, 200);
    const refused = await request(gateway.app).get('/v2/catalog/products').set(bearer(token));
    assert.equal(refused.status, 401);
    assert.equal(refused.body.code, 'KEY_REVOKED');
  });

  it('sees a revoke committed by another connection (the CLI) on the very next request', async () => {
    const { key, secret } = await keyService.createKey(
      ADMIN,
      { name: 'a', environment: 'test', scopes: ['article:r'] },
      CLI,
    );
    assert.equal((await request(gateway.app).get('/v2/catalog/products').set(bearer(secret))).status, 200);
    assert.equal(test.seen.length, 1, 'a test key reaches the test upstream');

    const cliStore = openSqliteKeyStore(file);
    try {
      const cli = createKeyService({
        store: cliStore,
        hasher,
        events: createLocalKeyEvents(),
        clock: Date.now,
      });
      await cli.revokeKey(ADMIN, key.id, CLI);
    } finally {
      await cliStore.close();
    }
    const refused = await request(gateway.app).get('/v2/catalog/products').set(bearer(secret));
    assert.equal(refused.body.code, 'KEY_REVOKED');
  });

  it('keeps both secrets of a rotation on one budget and flushes usage per secret', async () => {
    const { key, secret: oldToken } = await keyService.createKey(
      ADMIN,
      { name: 'r', environment: 'live', scopes: ['article:r'], rateLimit: { perMinute: 3 } },
      CLI,
    );
    const { secret: newToken } = await keyService.rotateKey(ADMIN, key.id, { overlapDays: 1 }, CLI);
    const statuses = [];
    for (const token of [oldToken, newToken, oldToken, newToken]) {
      statuses.push((await request(gateway.app).get('/v2/catalog/products').set(bearer(token))).status);
    }
    assert.deepEqual(statuses, [200, 200, 200, 429]);
    await gateway.recorder.flush();
    const usage = await store.queryUsage({ keyId: key.id, from: 0, to: Date.now() + 60_000 });
    assert.equal(
      usage.reduce((sum, bucket) => sum + bucket.calls, 0),
      4,
    );
    assert.equal(new Set(usage.map((bucket) => bucket.secretId)).size, 2);
  });
});
