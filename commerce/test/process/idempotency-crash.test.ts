import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createTempDir } from '../support/app.ts';
import { createTestIdentity, type TestIdentity } from '../support/identity.ts';
import {
  childEnv,
  findFreePort,
  killRunning,
  signedFetch,
  startMain,
  waitUntilReady,
} from '../support/process.ts';

/** The members of commerce's answers this test reads. */
interface Answer {
  id: string;
  cartId: string;
  checkedOutAt: string | null;
}

describe('a checkout across a kill -9 between its commit and its answer', function () {
  this.timeout(60_000);
  let temp: ReturnType<typeof createTempDir>;
  let identity: TestIdentity;
  beforeEach(async () => {
    temp = createTempDir();
    identity = await createTestIdentity();
  });
  afterEach(() => {
    killRunning();
    temp.remove();
  });

  it('leaves one order, and the retry with the same Idempotency-Key answers it', async () => {
    const jwksFile = join(temp.dir, 'jwks.json');
    writeFileSync(jwksFile, JSON.stringify(identity.signer.jwks));
    const port = await findFreePort();
    const base = `http://127.0.0.1:${port}`;
    const env = {
      COMMERCE_ENV: 'live',
      COMMERCE_PORT: String(port),
      KEYGATE_DATA_DIR: join(temp.dir, 'data'),
      KEYGATE_JWKS_FILE: jwksFile,
      LOG_LEVEL: 'error',
    };
    const call = async (method: string, path: string, body?: unknown, headers?: Record<string, string>) => {
      const res = await signedFetch(identity, base, method, path, body, headers);
      return { status: res.status, headers: res.headers, body: (await res.json()) as Answer };
    };
    const checkoutKey = { 'Idempotency-Key': 'checkout-9f1c2a' };

    // The first process commits the checkout, then (test hook) never answers: it is killed there.
    const first = startMain(
      childEnv({ ...env, KEYGATE_BENCH_MODE: '1', COMMERCE_TEST_HANG_AFTER_COMMIT: ':checkout' }),
    );
    await waitUntilReady(base, first.child);
    await call('POST', '/v2/stock/KG-00001:adjust', { delta: 5 });
    const cart = await call('POST', '/v2/carts', { channel: 'WEB_DE' });
    assert.equal(
      (await call('POST', `/v2/carts/${cart.body.id}/items`, { sku: 'KG-00001', qty: 1 })).status,
      200,
    );
    const lost = signedFetch(
      identity,
      base,
      'POST',
      `/v2/carts/${cart.body.id}:checkout`,
      undefined,
      checkoutKey,
    );
    const answered = lost.then(
      () => true,
      () => false,
    );
    const deadline = Date.now() + 15_000;
    while ((await call('GET', `/v2/carts/${cart.body.id}`)).body.checkedOutAt === null) {
      assert.ok(Date.now() < deadline, 'the checkout was never committed');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    first.child.kill('SIGKILL');
    assert.deepEqual(await first.exited, [null, 'SIGKILL']);
    assert.equal(await answered, false, 'the caller never got the answer');

    // Restarted on the same database: the retry replays the order the lost answer carried.
    const second = startMain(childEnv(env));
    await waitUntilReady(base, second.child);
    const retried = await call('POST', `/v2/carts/${cart.body.id}:checkout`, undefined, checkoutKey);
    assert.equal(retried.status, 201, JSON.stringify(retried.body));
    assert.equal(retried.headers.get('idempotent-replayed'), 'true');
    assert.equal(retried.headers.get('location'), `/v2/orders/${retried.body.id}`);
    assert.equal(retried.body.cartId, cart.body.id);
    const order = await call('GET', `/v2/orders/${retried.body.id}`);
    assert.equal(order.status, 200);
    assert.deepEqual(order.body, retried.body);
    // Without the key, the same retry is refused: that is what the key saves an integrator from.
    assert.equal((await call('POST', `/v2/carts/${cart.body.id}:checkout`)).status, 409);
    second.child.kill('SIGTERM');
    assert.deepEqual(await second.exited, [0, null], second.stderr());

    const db = new Database(join(temp.dir, 'data', 'commerce-live.db'), { readonly: true });
    try {
      const orders = db.prepare('SELECT id FROM orders WHERE cart_id = ?').all(cart.body.id) as Array<{
        id: string;
      }>;
      assert.deepEqual(
        orders.map((row) => row.id),
        [retried.body.id],
      );
    } finally {
      db.close();
    }
  });

  it('is refused outside KEYGATE_BENCH_MODE=1: the hook never reaches a production process', async () => {
    const started = startMain(childEnv({ COMMERCE_TEST_HANG_AFTER_COMMIT: ':checkout', LOG_LEVEL: 'error' }));
    const [code] = await started.exited;
    assert.equal(code, 1);
    assert.match(started.stderr(), /^config error: COMMERCE_TEST_HANG_AFTER_COMMIT/m);
  });
});
