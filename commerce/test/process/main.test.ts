import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { migrateDatabase, openDatabase } from '../../src/db/database.ts';
import { readDatabaseEnvironment } from '../../src/db/database-environment.ts';
import { seedDatabase } from '../../src/seed/seed-database.ts';
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

describe('node src/main.ts', function () {
  this.timeout(30_000);
  let temp: ReturnType<typeof createTempDir>;
  let identity: TestIdentity;
  let jwksFile: string;
  beforeEach(async () => {
    temp = createTempDir();
    identity = await createTestIdentity();
    jwksFile = join(temp.dir, 'jwks.json');
    writeFileSync(jwksFile, JSON.stringify(identity.signer.jwks));
  });
  afterEach(() => {
    killRunning();
    temp.remove();
  });

  describe('with a free port, a temp data dir and KEYGATE_JWKS_FILE', () => {
    it('migrates, seeds, serves signed requests and exits 0 on SIGTERM, keeping data on restart', async () => {
      const port = await findFreePort();
      const base = `http://127.0.0.1:${port}`;
      const env = childEnv({
        COMMERCE_ENV: 'live',
        COMMERCE_PORT: String(port),
        KEYGATE_DATA_DIR: join(temp.dir, 'data'),
        KEYGATE_JWKS_FILE: jwksFile,
        LOG_LEVEL: 'warn',
      });

      const first = startMain(env);
      await waitUntilReady(base, first.child);
      assert.ok(existsSync(join(temp.dir, 'data', 'commerce-live.db')));
      const product = await signedFetch(identity, base, 'GET', '/v2/catalog/products/KG-00001');
      assert.equal(product.status, 200);
      const body = (await product.json()) as { data: { sku: string; price: { currency: string } } };
      assert.equal(body.data.sku, 'KG-00001');
      assert.equal(body.data.price.currency, 'EUR');
      assert.equal((await fetch(`${base}/v2/channels`)).status, 401);
      const cart = await signedFetch(identity, base, 'POST', '/v2/carts', { channel: 'WEB_DE' });
      assert.equal(cart.status, 201);
      const { id } = (await cart.json()) as { id: string };

      first.child.kill('SIGTERM');
      assert.deepEqual(await first.exited, [0, null], first.stderr());

      const second = startMain(env);
      await waitUntilReady(base, second.child);
      assert.equal((await signedFetch(identity, base, 'GET', `/v2/carts/${id}`)).status, 200);
      second.child.kill('SIGTERM');
      assert.deepEqual(await second.exited, [0, null], second.stderr());
    });
  });

  describe('with webhook events past COMMERCE_WEBHOOK_RETENTION_DAYS', () => {
    it('deletes the finished ones on start and keeps the recent ones', async () => {
      const dbFile = join(temp.dir, 'data', 'commerce-live.db');
      const db = openDatabase(dbFile);
      const old = new Date(Date.now() - 40 * 86_400_000).toISOString();
      const recent = new Date(Date.now() - 86_400_000).toISOString();
      try {
        migrateDatabase(db);
        seedDatabase(db, { environment: 'live' });
        db.sqlite.exec(`
          INSERT INTO webhook_endpoints (id, url, secret, created_by_key_id, created_at, updated_at)
            VALUES ('wep_1', 'https://example.com/hook', 'whsec_x', 'key_1', '${old}', '${old}');
          INSERT INTO webhook_events (id, type, body, created_at) VALUES
            ('evt_old', 'stock.updated', '{}', '${old}'), ('evt_recent', 'stock.updated', '{}', '${recent}');
          INSERT INTO webhook_deliveries (id, event_id, endpoint_id, status, created_at, completed_at) VALUES
            ('msg_old', 'evt_old', 'wep_1', 'succeeded', '${old}', '${old}'),
            ('msg_recent', 'evt_recent', 'wep_1', 'succeeded', '${recent}', '${recent}');
          INSERT INTO webhook_attempts (delivery_id, started_at, finished_at, webhook_timestamp, status_code)
            VALUES ('msg_old', '${old}', '${old}', 0, 200);`);
      } finally {
        db.close();
      }
      const port = await findFreePort();
      const main = startMain(
        childEnv({
          COMMERCE_ENV: 'live',
          COMMERCE_PORT: String(port),
          COMMERCE_DB_FILE: dbFile,
          KEYGATE_JWKS_FILE: jwksFile,
          COMMERCE_WEBHOOK_RETENTION_DAYS: '30',
        }),
      );
      await waitUntilReady(`http://127.0.0.1:${port}`, main.child);
      const reader = openDatabase(dbFile);
      try {
        const ids = () =>
          (
            reader.sqlite.prepare('SELECT id FROM webhook_events ORDER BY id').all() as Array<{ id: string }>
          ).map((row) => row.id);
        const deadline = Date.now() + 10_000;
        while (ids().includes('evt_old') && Date.now() < deadline)
          await new Promise((r) => setTimeout(r, 50));
        assert.deepEqual(ids(), ['evt_recent']);
        const attempts = reader.sqlite.prepare('SELECT count(*) AS n FROM webhook_attempts').get() as {
          n: number;
        };
        assert.equal(attempts.n, 0, 'the old delivery and its attempt went with the event');
      } finally {
        reader.close();
      }
      main.child.kill('SIGTERM');
      assert.deepEqual(await main.exited, [0, null], main.stderr());
    });
  });

  describe('with COMMERCE_ENV=prod', () => {
    it('exits non-zero with one line starting "config error:"', async () => {
      const run = startMain(childEnv({ COMMERCE_ENV: 'prod', KEYGATE_DATA_DIR: join(temp.dir, 'data') }));
      const [code] = await run.exited;
      assert.notEqual(code, 0);
      const lines = run.stderr().trim().split('\n');
      assert.equal(lines.length, 1, run.stderr());
      assert.match(lines[0]!, /^config error: COMMERCE_ENV/);
      assert.ok(!existsSync(join(temp.dir, 'data')), 'no data dir created');
    });
  });

  describe('with an unreadable KEYGATE_JWKS_FILE', () => {
    it('exits non-zero with one config error line', async () => {
      const run = startMain(
        childEnv({ KEYGATE_JWKS_FILE: join(temp.dir, 'missing.json'), KEYGATE_DATA_DIR: temp.dir }),
      );
      const [code] = await run.exited;
      assert.notEqual(code, 0);
      assert.match(run.stderr(), /^config error: KEYGATE_JWKS_FILE .* cannot be read/);
    });
  });

  describe('with the database of the other environment', () => {
    /** Starts a process of `environment` on `dbFile`; expects a refusal before listening. */
    async function expectRefused(environment: 'live' | 'test', dbFile: string, recorded: string) {
      const run = startMain(
        childEnv({
          COMMERCE_ENV: environment,
          COMMERCE_PORT: String(await findFreePort()),
          COMMERCE_DB_FILE: dbFile,
          KEYGATE_JWKS_FILE: jwksFile,
        }),
      );
      const [code] = await run.exited;
      assert.notEqual(code, 0);
      const lines = run.stderr().trim().split('\n');
      assert.equal(lines.length, 1, run.stderr());
      assert.match(
        lines[0]!,
        new RegExp(
          `^config error: database .* belongs to the ${recorded} environment, this process serves ${environment}`,
        ),
      );
    }

    it('a live process refuses a test database with one config error line', async () => {
      const dbFile = join(temp.dir, 'seeded-test.db');
      const db = openDatabase(dbFile);
      migrateDatabase(db);
      seedDatabase(db, { environment: 'test', products: 3 });
      db.close();
      await expectRefused('live', dbFile, 'test');
    });

    it('a test process refuses the database a live process created and recorded', async () => {
      const port = await findFreePort();
      const dbFile = join(temp.dir, 'data', 'commerce-live.db');
      const live = startMain(
        childEnv({
          COMMERCE_ENV: 'live',
          COMMERCE_PORT: String(port),
          COMMERCE_DB_FILE: dbFile,
          KEYGATE_JWKS_FILE: jwksFile,
        }),
      );
      await waitUntilReady(`http://127.0.0.1:${port}`, live.child);
      live.child.kill('SIGTERM');
      assert.deepEqual(await live.exited, [0, null], live.stderr());
      await expectRefused('test', dbFile, 'live');
      const db = openDatabase(dbFile);
      try {
        assert.equal(readDatabaseEnvironment(db), 'live');
      } finally {
        db.close();
      }
    });
  });
});
