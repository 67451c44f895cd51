import assert from 'node:assert/strict';
import {
  fingerprintRequest,
  IDEMPOTENCY_LEASE_MS,
  IDEMPOTENCY_RETENTION_MS,
  runningRecord,
} from '@keygate/contracts/idempotency';
import request from 'supertest';
import type { GatewayListener } from '../../../src/data-plane/gateway-listener.ts';
import { hashIdempotencyKey } from '../../../src/idempotency/seal-answer.ts';
import type { KeyService } from '../../../src/keys/key-service.ts';
import type { Actor } from '../../../src/model/model.ts';
import type { KeyStore } from '../../../src/store/store.ts';

const ADMIN: Actor = { type: 'admin', id: 'adm_test' };
const ORIGIN = { sourceIp: null };

/** Gateway instances on one store (one, or two sharing Redis) and a clock the test moves forward. */
export interface IdempotencySetup {
  instances: GatewayListener[];
  keyService: KeyService;
  store: KeyStore;
  /** Moves every instance's clock forward. */
  advance(ms: number): void;
  close(): Promise<void>;
}

/**
 * The key-management API's Idempotency-Key behaviour, as every store backend must give it (SQLite,
 * Redis standalone and Cluster). A retry goes to the last instance: on Redis, another process.
 */
export function describeKeysApiIdempotency(name: string, start: () => Promise<IdempotencySetup>): void {
  describe(`Idempotency-Key on /v2/auth/keys: ${name}`, function () {
    this.timeout(30_000);
    let setup: IdempotencySetup;
    let manager: { id: string; secret: string };
    beforeEach(async () => {
      setup = await start();
      const created = await setup.keyService.createKey(
        ADMIN,
        { name: 'manager', environment: 'live', scopes: ['auth:rw', 'order:rw', 'article:r'] },
        ORIGIN,
      );
      manager = { id: created.key.id, secret: created.secret };
    });
    afterEach(() => setup.close());

    const first = () => setup.instances[0] as GatewayListener;
    const last = () => setup.instances.at(-1) as GatewayListener;
    const post = (
      app: GatewayListener,
      path: string,
      key: string | null,
      body: object,
      token = manager.secret,
    ) => {
      const req = request(app).post(`/v2/auth/keys${path}`).set('Authorization', `Bearer ${token}`);
      return (key === null ? req : req.set('Idempotency-Key', key)).send(body);
    };
    const childCount = async () =>
      (await setup.keyService.listKeys(ADMIN, {})).filter((key) => key.name === 'child').length;

    describe('POST /v2/auth/keys retried with the same key and body', () => {
      it('creates one key and replays the first answer, token included, marked replayed', async () => {
        const body = { name: 'child', scopes: ['order:r'] };
        const created = await post(first(), '/', 'create-1', body);
        const replayed = await post(last(), '/', 'create-1', body);
        assert.equal(created.status, 201, created.text);
        assert.equal(created.headers['idempotent-replayed'], undefined);
        assert.equal(replayed.status, 201);
        assert.equal(replayed.headers['idempotent-replayed'], 'true');
        assert.deepEqual(replayed.body, created.body);
        assert.equal(replayed.headers.location, created.headers.location);
        assert.equal(replayed.headers['cache-control'], 'no-store');
        assert.equal(await childCount(), 1);
      });
      it('keeps no token readable in the store: the record holds a hash of the key and a sealed body', async () => {
        const created = await post(first(), '/', 'create-sealed', { name: 'child', scopes: ['order:r'] });
        const record = await setup.store.readIdempotency(manager.id, hashIdempotencyKey('create-sealed'));
        assert.equal(record?.state, 'done');
        assert.ok(record?.state === 'done' && !record.answer.body.includes(created.body.secret));
        assert.equal(await setup.store.readIdempotency(manager.id, 'create-sealed'), null);
      });
    });

    describe('a rotation retried with the same key', () => {
      it('rotates once and answers the retry with the same new token', async () => {
        const child = await post(first(), '/', null, { name: 'child', scopes: ['order:r'] });
        const rotated = await post(first(), `/${child.body.id}:rotate`, 'rotate-1', { overlapDays: 1 });
        const again = await post(last(), `/${child.body.id}:rotate`, 'rotate-1', { overlapDays: 1 });
        assert.equal(rotated.status, 200, rotated.text);
        assert.equal(again.body.secret, rotated.body.secret);
        assert.equal(again.headers['idempotent-replayed'], 'true');
        assert.equal((await setup.store.listSecrets(child.body.id)).length, 2);
      });
    });

    describe('the same key with another body', () => {
      it('answers 422 IDEMPOTENCY_KEY_REUSED and creates nothing more', async () => {
        await post(first(), '/', 'reuse-1', { name: 'child', scopes: ['order:r'] });
        const res = await post(last(), '/', 'reuse-1', { name: 'child', scopes: ['article:r'] });
        assert.equal(res.status, 422);
        assert.equal(res.body.code, 'IDEMPOTENCY_KEY_REUSED');
        assert.equal(await childCount(), 1);
      });
    });

    describe('a key whose first request is still running', () => {
      it('answers 409 IDEMPOTENCY_KEY_IN_USE with Retry-After, and runs once the lease lapsed', async () => {
        const body = JSON.stringify({ name: 'child', scopes: ['order:r'] });
        const fingerprint = fingerprintRequest('POST', '/v2/auth/keys/', body);
        const now = Date.now();
        const running = runningRecord(fingerprint, now);
        await setup.store.swapIdempotency(manager.id, hashIdempotencyKey('busy-1'), null, running, now);
        const send = () =>
          request(last())
            .post('/v2/auth/keys/')
            .set('Authorization', `Bearer ${manager.secret}`)
            .set('Idempotency-Key', 'busy-1')
            .set('Content-Type', 'application/json')
            .send(body);
        const busy = await send();
        assert.equal(busy.status, 409, busy.text);
        assert.equal(busy.body.code, 'IDEMPOTENCY_KEY_IN_USE');
        assert.ok(Number(busy.headers['retry-after']) >= 1);
        setup.advance(IDEMPOTENCY_LEASE_MS + 1000);
        assert.equal((await send()).status, 201);
        assert.equal(await childCount(), 1);
      });
      it('lets exactly one of two concurrent first requests run', async () => {
        const body = { name: 'child', scopes: ['order:r'] };
        const answers = await Promise.all([
          post(first(), '/', 'race-1', body),
          post(last(), '/', 'race-1', body),
        ]);
        const statuses = answers.map((res) => res.status).sort();
        assert.ok(
          JSON.stringify(statuses) === '[201,201]' || JSON.stringify(statuses) === '[201,409]',
          `got ${statuses}`,
        );
        assert.equal(await childCount(), 1);
      });
    });

    describe('after 24 hours', () => {
      it('forgets the key: the same request runs again', async () => {
        const body = { name: 'child', scopes: ['order:r'] };
        const created = await post(first(), '/', 'day-1', body);
        setup.advance(IDEMPOTENCY_RETENTION_MS + 1000);
        const later = await post(last(), '/', 'day-1', body);
        assert.equal(later.status, 201);
        assert.equal(later.headers['idempotent-replayed'], undefined);
        assert.notEqual(later.body.id, created.body.id);
        assert.equal(await childCount(), 2);
      });
    });

    describe('two API keys using the same idempotency key', () => {
      it('never see each other’s records', async () => {
        const other = await setup.keyService.createKey(
          ADMIN,
          { name: 'manager 2', environment: 'live', scopes: ['auth:rw', 'order:rw'] },
          ORIGIN,
        );
        const mine = await post(first(), '/', 'shared', { name: 'child', scopes: ['order:r'] });
        const theirs = await post(
          last(),
          '/',
          'shared',
          { name: 'child', scopes: ['order:rw'] },
          other.secret,
        );
        assert.equal(theirs.status, 201, theirs.text);
        assert.equal(theirs.headers['idempotent-replayed'], undefined);
        assert.notEqual(theirs.body.id, mine.body.id);
      });
    });

    describe('a refusal of the caller', () => {
      it('is not kept: 403 ESCALATION_DENIED, then the same request runs once the key holds the scope', async () => {
        const body = { name: 'child', scopes: ['customer:r'] };
        const refused = await post(first(), '/', 'scope-1', body);
        assert.equal(refused.status, 403, refused.text);
        assert.equal(refused.body.code, 'ESCALATION_DENIED');
        await setup.keyService.changeScopes(
          ADMIN,
          manager.id,
          ['auth:rw', 'order:rw', 'article:r', 'customer:r'],
          ORIGIN,
        );
        const res = await post(last(), '/', 'scope-1', body);
        assert.equal(res.status, 201, res.text);
      });
      it('refused before the handler (401) leaves the key free', async () => {
        const body = { name: 'child', scopes: ['order:r'] };
        const wrong = `${manager.secret.slice(0, -8)}AAAAAAAA`;
        assert.equal((await post(first(), '/', 'auth-1', body, wrong)).status, 401);
        assert.equal((await post(last(), '/', 'auth-1', body)).status, 201);
      });
    });

    describe('a malformed key', () => {
      it('answers 400 MALFORMED_IDEMPOTENCY_KEY and creates nothing', async () => {
        const res = await post(first(), '/', 'x'.repeat(256), { name: 'child', scopes: ['order:r'] });
        assert.equal(res.status, 400);
        assert.equal(res.body.code, 'MALFORMED_IDEMPOTENCY_KEY');
        assert.equal(await childCount(), 0);
      });
    });
  });
}
