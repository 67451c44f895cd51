import assert from 'node:assert/strict';
import { setImmediate as turn } from 'node:timers/promises';
import request from 'supertest';
import { createKeyService } from '../../../src/keys/key-service.ts';
import { createKeysRouter } from '../../../src/keys-api/router.ts';
import { createLocalKeyEvents } from '../../../src/model/events.ts';
import type { ApiLogEntry } from '../../../src/model/model.ts';
import { createCountingHasher } from '../../support/counting-hasher.ts';
import { startTestGateway, type TestGateway } from '../../support/gateway.ts';
import { seedKey } from '../../support/keys.ts';
import { createMemoryStore } from '../../support/memory-store.ts';

describe('API log bodies (the sandbox: test keys only)', () => {
  let gw: TestGateway;
  beforeEach(async () => {
    gw = await startTestGateway();
  });
  afterEach(() => gw.stop());

  /** The key's log lines once the calls made so far were recorded and flushed. */
  async function linesOf(keyId: string, count: number): Promise<ApiLogEntry[]> {
    for (let i = 0; i < 1000 && gw.recorder.pending().logs + gw.store.logs.length < count; i++) await turn();
    await gw.recorder.flush();
    return gw.store.logs.filter((line) => line.keyId === keyId);
  }

  const post = (token: string, path: string, body: unknown) =>
    request(gw.app)
      .post(path)
      .set('Authorization', `Bearer ${token}`)
      .send(body as object);

  it('keeps the JSON request and response bodies of a test key, never its Authorization header', async () => {
    const { key, token } = await seedKey(gw.store, gw.hasher, { environment: 'test' });
    const res = await post(token, '/v2/carts', { channel: 'WEB_DE' });
    assert.equal(res.status, 200);
    const [line] = await linesOf(key.id, 1);
    assert.deepEqual(line?.bodies?.request, {
      contentType: 'application/json',
      text: '{"channel":"WEB_DE"}',
      truncated: false,
    });
    assert.equal(line?.bodies?.response?.contentType, 'application/json');
    assert.equal(line?.bodies?.response?.truncated, false);
    assert.equal(JSON.parse(line!.bodies!.response!.text).upstream, 'test');
    assert.doesNotMatch(JSON.stringify(line), /kg_test_[A-Za-z0-9]{6}/, 'no token anywhere in the line');
    assert.doesNotMatch(JSON.stringify(line), /authorization/i);
  });

  it('keeps no bodies for a live key', async () => {
    const { key, token } = await seedKey(gw.store, gw.hasher, { environment: 'live' });
    assert.equal((await post(token, '/v2/carts', { channel: 'WEB_DE' })).status, 200);
    const [line] = await linesOf(key.id, 1);
    assert.ok(line);
    assert.equal('bodies' in line, false);
  });

  it('cuts a body beyond 16 KiB and says so', async () => {
    const { key, token } = await seedKey(gw.store, gw.hasher, { environment: 'test' });
    const big = { note: 'x'.repeat(40_000) };
    assert.equal((await post(token, '/v2/carts', big)).status, 200);
    const [line] = await linesOf(key.id, 1);
    assert.equal(line?.bodies?.request?.truncated, true);
    assert.equal(Buffer.byteLength(line!.bodies!.request!.text), 16 * 1024);
  });

  it('keeps neither body of a call whose types are neither JSON nor text', async () => {
    const { key, token } = await seedKey(gw.store, gw.hasher, { environment: 'test' });
    const res = await request(gw.app)
      .post('/v2/carts')
      .set('Authorization', `Bearer ${token}`)
      .set('Content-Type', 'application/octet-stream')
      .send(Buffer.from([1, 2, 3]));
    assert.equal(res.status, 200);
    const [line] = await linesOf(key.id, 1);
    assert.equal(line?.bodies?.request, null);
  });

  it('keeps the problem+json of a refusal (a forced scenario)', async () => {
    const { key, token } = await seedKey(gw.store, gw.hasher, { environment: 'test' });
    const res = await request(gw.app)
      .get('/v2/catalog/products')
      .set('Authorization', `Bearer ${token}`)
      .set('Keygate-Test-Scenario', 'rate-limited');
    assert.equal(res.status, 429);
    const [line] = await linesOf(key.id, 1);
    assert.equal(line?.bodies?.request, null);
    assert.equal(line?.bodies?.response?.contentType, 'application/problem+json');
    assert.equal(JSON.parse(line!.bodies!.response!.text).code, 'RATE_LIMITED');
  });

  it('never keeps the secret of a key-creation answer', async () => {
    await gw.stop();
    const store = createMemoryStore();
    const hasher = createCountingHasher();
    const keyService = createKeyService({ store, hasher, events: createLocalKeyEvents(), clock: Date.now });
    gw = await startTestGateway({ store, hasher, keysRouter: createKeysRouter({ keyService }) });
    const { key, token } = await seedKey(gw.store, gw.hasher, {
      environment: 'test',
      scopes: ['auth:rw', 'article:r'],
    });
    const res = await post(token, '/v2/auth/keys', {
      name: 'child',
      environment: 'test',
      scopes: ['article:r'],
    });
    assert.equal(res.status, 201, res.text);
    const secret = res.body.secret as string;
    assert.match(secret, /^kg_test_/);
    const [line] = await linesOf(key.id, 1);
    const text = line?.bodies?.response?.text ?? '';
    assert.match(text, /"secret":"\[redacted\]"/);
    assert.ok(!JSON.stringify(line).includes(secret));
    assert.equal(JSON.parse(text).name, 'child');
  });
});
