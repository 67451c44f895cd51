import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createIdentitySigner, generateIdentityKeyPair } from '@keygate/identity';
import request from 'supertest';
import { createApp, type GatewayApp } from '../../../src/app.ts';
import { loadConfig } from '../../../src/config.ts';
import { type CreateKeyRequest, createKeyService, type KeyService } from '../../../src/keys/key-service.ts';
import { createLocalKeyEvents } from '../../../src/model/events.ts';
import type { Actor } from '../../../src/model/model.ts';
import { openSqliteKeyStore } from '../../../src/store/sqlite/sqlite-store.ts';
import type { KeyStore } from '../../../src/store/store.ts';
import { createCountingHasher } from '../../support/counting-hasher.ts';
import { startEchoUpstream, type TestUpstream } from '../../support/upstream.ts';

const ADMIN: Actor = { type: 'admin', id: 'adm_test' };
const CLI = { sourceIp: null };

/**
 * The whole gateway (createApp: key pipeline, real keys router and key service, SQLite store on a
 * temp file) with a manager key created through the service: every escalation attempt goes over HTTP
 * through the real authentication, not a stand-in.
 */
describe('/v2/auth/keys over the real pipeline: no escalation', () => {
  let dir: string;
  let store: KeyStore;
  let keyService: KeyService;
  let gateway: GatewayApp;
  let live: TestUpstream;
  let test: TestUpstream;
  let manager: string;

  /** Live, auth:rw + order:rw + article:r, expiring, bound to loopback, 100/min. */
  const MANAGER: CreateKeyRequest = {
    name: 'manager',
    environment: 'live',
    scopes: ['auth:rw', 'order:rw', 'article:r'],
    expiresAt: '2999-12-30',
    ipAllowlist: ['127.0.0.0/8', '::1'],
    rateLimit: { perMinute: 100 },
  };
  /** A key the manager may create. */
  const ALLOWED = {
    name: 'child',
    scopes: ['order:r'],
    expiresAt: '2999-12-01',
    ipAllowlist: ['127.0.0.1'],
    rateLimit: { perMinute: 50 },
  };

  beforeEach(async () => {
    [live, test] = await Promise.all([startEchoUpstream('live'), startEchoUpstream('test')]);
    dir = mkdtempSync(join(tmpdir(), 'keygate-escalation-'));
    store = openSqliteKeyStore(join(dir, 'gateway.db'));
    const hasher = createCountingHasher();
    const events = createLocalKeyEvents();
    keyService = createKeyService({ store, hasher, events, clock: Date.now });
    const config = loadConfig({ KEYGATE_UPSTREAM_LIVE: live.url, KEYGATE_UPSTREAM_TEST: test.url });
    const signer = await createIdentitySigner({ privateJwk: (await generateIdentityKeyPair()).privateJwk });
    gateway = createApp({ config, store, hasher, events, signer, keyService });
    manager = (await keyService.createKey(ADMIN, MANAGER, CLI)).secret;
  });

  afterEach(async () => {
    await gateway.close();
    await store.close();
    await Promise.all([live.close(), test.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  const post = (path: string, body: object) =>
    request(gateway.app).post(`/v2/auth/keys${path}`).set('Authorization', `Bearer ${manager}`).send(body);

  async function assertDenied(res: request.Response, rule: string) {
    assert.equal(res.status, 403, JSON.stringify(res.body));
    assert.equal(res.body.code, 'ESCALATION_DENIED');
    assert.equal(res.body.rule, rule);
  }

  describe('POST /v2/auth/keys', () => {
    const refusals: Array<[string, Record<string, unknown>, string]> = [
      ['no expiry', { expiresAt: null }, 'expiry'],
      ['an expiry after the manager’s', { expiresAt: '2999-12-31' }, 'expiry'],
      ['no IP allowlist', { ipAllowlist: [] }, 'ip_allowlist'],
      ['an IP range outside the manager’s', { ipAllowlist: ['10.0.0.0/8'] }, 'ip_allowlist'],
      ['a higher rate limit', { rateLimit: { perMinute: 101 } }, 'rate_limit'],
      ['a scope the manager lacks', { scopes: ['stock:r'] }, 'scopes'],
      ['auth:rw', { scopes: ['auth:rw'] }, 'auth_scope'],
      ['the other environment', { environment: 'test' }, 'environment'],
    ];
    for (const [what, patch, rule] of refusals) {
      it(`refuses ${what} with 403 (${rule}) and creates nothing`, async () => {
        await assertDenied(await post('/', { ...ALLOWED, ...patch }), rule);
        assert.equal((await store.listKeys()).length, 1);
      });
    }

    it('creates a key within the manager, whose token then works through the gateway', async () => {
      const created = await post('/', ALLOWED);
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const cart = await request(gateway.app)
        .get('/v2/carts/crt_1')
        .set('Authorization', `Bearer ${created.body.secret}`);
      assert.equal(cart.status, 200);
      assert.equal(cart.body.upstream, 'live');
    });
  });

  describe('changing other keys', () => {
    it('refuses target scopes it lacks on scope change, rotate and revoke (target_scopes)', async () => {
      const strong = (
        await keyService.createKey(ADMIN, { ...ALLOWED, environment: 'live', scopes: ['stock:rw'] }, CLI)
      ).key;
      await assertDenied(await post(`/${strong.id}/scopes`, { scopes: ['order:r'] }), 'target_scopes');
      await assertDenied(await post(`/${strong.id}:rotate`, {}), 'target_scopes');
      const revoke = await request(gateway.app)
        .delete(`/v2/auth/keys/${strong.id}`)
        .set('Authorization', `Bearer ${manager}`);
      await assertDenied(revoke, 'target_scopes');
      assert.equal((await store.getKey(strong.id))?.version, 1);
    });

    it('refuses a scope change on a covered key it could not have created (expiry, IP, rate limit)', async () => {
      const unfit: Array<[Partial<CreateKeyRequest>, string]> = [
        [{ expiresAt: null }, 'expiry'],
        [{ ipAllowlist: [] }, 'ip_allowlist'],
        [{ rateLimit: { perMinute: 500 } }, 'rate_limit'],
      ];
      for (const [patch, rule] of unfit) {
        const input: CreateKeyRequest = { ...ALLOWED, environment: 'live', ...patch };
        const { key } = await keyService.createKey(ADMIN, input, CLI);
        await assertDenied(await post(`/${key.id}/scopes`, { scopes: ['article:r'] }), rule);
        assert.deepEqual((await store.getKey(key.id))?.scopes, ['order:r']);
      }
    });

    it('answers 404 for a key of the other environment', async () => {
      const other = (await keyService.createKey(ADMIN, { ...ALLOWED, environment: 'test' }, CLI)).key;
      const read = await request(gateway.app)
        .get(`/v2/auth/keys/${other.id}`)
        .set('Authorization', `Bearer ${manager}`);
      assert.equal(read.status, 404);
      assert.equal(read.body.code, 'KEY_NOT_FOUND');
      const change = await post(`/${other.id}/scopes`, { scopes: ['order:r'] });
      assert.equal(change.status, 404);
      assert.equal((await store.getKey(other.id))?.version, 1);
    });
  });
});
