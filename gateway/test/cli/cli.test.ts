import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import argon2 from 'argon2';
import { parseToken } from '../../src/keys/token.ts';
import { openRedisKeyStore } from '../../src/store/redis/redis-store.ts';
import { openSqliteKeyStore } from '../../src/store/sqlite/sqlite-store.ts';
import { TEST_TAG_KEY } from '../support/redis-gateway.ts';
import { startRedis, type TestRedis } from '../support/redis-server.ts';
import { closedPortUrl } from '../support/upstream.ts';

const CLI = join(import.meta.dirname, '..', '..', 'src', 'cli.ts');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI as a real process on `dataDir`, optionally writing `input` to its stdin. */
function keygate(
  dataDir: string,
  args: string[],
  input?: string,
  env: Record<string, string> = {},
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { PATH: process.env.PATH, KEYGATE_DATA_DIR: dataDir, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input ?? '');
  });
}

/** Asserts a failed run: exit 2 and exactly one line on stderr matching `pattern`. */
function assertFails(run: Run, pattern: RegExp): void {
  assert.equal(run.code, 2, run.stdout + run.stderr);
  assert.equal(run.stderr.trimEnd().split('\n').length, 1, run.stderr);
  assert.match(run.stderr, pattern);
}

describe('keygate CLI', function () {
  // Each test spawns CLI processes (Node start-up, argon2); a loaded 2-core machine needs more than
  // the suite's default 20 s for the longer sequences.
  this.timeout(60_000);
  let dir: string;
  let dataDir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'keygate-cli-'));
    dataDir = join(dir, 'data');
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  async function createKey(...extra: string[]) {
    const run = await keygate(dataDir, [
      'keys',
      'create',
      '--name',
      'ops',
      '--env',
      'live',
      '--scopes',
      'auth:rw',
      '--json',
      ...extra,
    ]);
    assert.equal(run.code, 0, run.stderr);
    return JSON.parse(run.stdout) as { id: string; prefix: string; secret: string };
  }

  describe('keygate --help', () => {
    it('prints the usage and exits 0; no arguments exits 2', async () => {
      const help = await keygate(dataDir, ['--help']);
      assert.equal(help.code, 0);
      assert.match(help.stdout, /create --name NAME --env live\|test --scopes/);
      assert.match(help.stdout, /admin <command>/);
      const none = await keygate(dataDir, []);
      assert.equal(none.code, 2);
    });
  });

  describe('keygate plans and identities', () => {
    it('creates a plan and an identity on it, a key of the identity, and refuses deleting what is in use', async () => {
      const plan = await keygate(dataDir, [
        'plans',
        'create',
        '--name',
        'Pro',
        '--limit',
        'minute:minute:100',
        '--quota',
        'month:10000',
        '--refill',
        'monthly:500:1',
        '--json',
      ]);
      assert.equal(plan.code, 0, plan.stderr);
      const planId = JSON.parse(plan.stdout).id as string;
      assert.deepEqual(JSON.parse(plan.stdout).quotas, [{ period: 'month', limit: 10000 }]);
      const identity = await keygate(dataDir, [
        'identities',
        'create',
        '--external-id',
        'cus_1',
        '--env',
        'live',
        '--plan',
        planId,
        '--credits',
        '50',
        '--json',
      ]);
      assert.equal(identity.code, 0, identity.stderr);
      const identityId = JSON.parse(identity.stdout).id as string;
      // A key of an identity spends the identity's credits: holding its own is refused.
      assertFails(
        await keygate(dataDir, [
          'keys',
          'create',
          '--name',
          'own',
          '--env',
          'live',
          '--scopes',
          'article:r',
          '--identity',
          identityId,
          '--credits',
          '5',
        ]),
        /spends the identity's credits/,
      );
      const key = await createKey('--identity', identityId, '--plan', planId);
      const shown = await keygate(dataDir, ['identities', 'show', identityId]);
      assert.equal(shown.code, 0, shown.stderr);
      assert.match(shown.stdout, new RegExp(`keys: ${key.id}`));
      assertFails(await keygate(dataDir, ['plans', 'delete', planId]), /PLAN_IN_USE/);
      assertFails(await keygate(dataDir, ['identities', 'delete', identityId]), /IDENTITY_HAS_KEYS/);
      const updated = await keygate(dataDir, ['plans', 'update', planId, '--refill', 'none', '--json']);
      assert.equal(JSON.parse(updated.stdout).credits, null);
      assert.equal(JSON.parse(updated.stdout).version, 2);
      const listed = await keygate(dataDir, ['identities', 'list']);
      assert.match(listed.stdout, /cus_1/);
    });

    it('sets, changes and removes the credits.low level of an identity and sets a key’s', async () => {
      const lowOf = (run: Run) => {
        assert.equal(run.code, 0, run.stderr);
        return JSON.parse(run.stdout).credits;
      };
      const created = await keygate(dataDir, [
        'identities',
        'create',
        '--external-id',
        'cus_low',
        '--env',
        'live',
        '--credits',
        '50',
        '--credits-low-at',
        '10',
        '--json',
      ]);
      assert.deepEqual(lowOf(created), { refill: null, lowAt: 10 });
      const id = JSON.parse(created.stdout).id as string;
      const update = (value: string) =>
        keygate(dataDir, ['identities', 'update', id, '--credits-low-at', value, '--json']);
      assert.deepEqual(lowOf(await update('5')), { refill: null, lowAt: 5 });
      assert.deepEqual(lowOf(await update('none')), { refill: null });
      assertFails(await update('0'), /VALIDATION_FAILED/);
      assertFails(await update('few'), /--credits-low-at/);

      const key = await createKey('--credits', '20', '--credits-low-at', '4');
      const store = openSqliteKeyStore(join(dataDir, 'gateway.db'));
      try {
        assert.deepEqual((await store.getKey(key.id))?.credits, { refill: null, lowAt: 4 });
      } finally {
        await store.close();
      }
      assertFails(
        await keygate(dataDir, [
          'keys',
          'create',
          '--name',
          'levels-only',
          '--env',
          'live',
          '--scopes',
          'article:r',
          '--credits-low-at',
          '4',
        ]),
        /--credits-low-at needs --credits/,
      );
    });

    it('exits 2 with one line for a malformed limit or an unknown plan, creating nothing', async () => {
      assertFails(
        await keygate(dataDir, ['plans', 'create', '--name', 'X', '--limit', 'm:minute:many']),
        /--limit/,
      );
      assertFails(
        await keygate(dataDir, ['plans', 'create', '--name', 'X', '--limit', 'm:fortnight:5']),
        /VALIDATION_FAILED/,
      );
      assertFails(
        await keygate(dataDir, [
          'identities',
          'create',
          '--external-id',
          'c',
          '--env',
          'live',
          '--plan',
          'plan_no',
        ]),
        /PLAN_NOT_FOUND/,
      );
      const list = await keygate(dataDir, ['plans', 'list']);
      assert.equal(list.stdout, 'No plans.\n');
    });
  });

  describe('keygate keys create --json', () => {
    it('prints exactly {id, prefix, secret}, may grant auth:rw, and stores the key under KEYGATE_DATA_DIR', async () => {
      const created = await createKey(
        '--expires',
        '2999-12-31',
        '--ip',
        '10.0.0.0/8',
        '--ip',
        '2001:db8::/32',
        '--rate-limit',
        '50',
      );
      assert.deepEqual(Object.keys(created), ['id', 'prefix', 'secret']);
      const parsed = parseToken(created.secret);
      assert.equal(parsed?.prefix, created.prefix);
      const store = openSqliteKeyStore(join(dataDir, 'gateway.db'));
      try {
        const found = await store.findByLookup(parsed!.lookup);
        assert.deepEqual(found?.key.scopes, ['auth:rw']);
        assert.deepEqual(found?.key.ipAllowlist, ['10.0.0.0/8', '2001:db8::/32']);
        assert.equal(found?.key.rateLimit.perMinute, 50);
        assert.equal(found?.key.expiresAt, '2999-12-31');
        assert.ok(await argon2.verify(found!.secret.hash, created.secret));
        const { items } = await store.listActivity({ keyId: created.id });
        assert.deepEqual(items[0]?.actor, { type: 'admin', id: `cli:${userInfo().username}` });
      } finally {
        await store.close();
      }
    });
  });

  describe('keygate keys create with bad flags', () => {
    it('exits 2 with one line for a bad environment, a missing name, a bad scope or a bad rate limit', async () => {
      assertFails(
        await keygate(dataDir, ['keys', 'create', '--name', 'x', '--env', 'prod', '--scopes', 'order:r']),
        /environment/,
      );
      assertFails(
        await keygate(dataDir, ['keys', 'create', '--env', 'live', '--scopes', 'order:r']),
        /--name is required/,
      );
      assertFails(
        await keygate(dataDir, ['keys', 'create', '--name', 'x', '--env', 'live', '--scopes', 'pay:rw']),
        /"pay:rw" is not a scope/,
      );
      assertFails(
        await keygate(dataDir, [
          'keys',
          'create',
          '--name',
          'x',
          '--env',
          'live',
          '--scopes',
          'order:r',
          '--rate-limit',
          'ten',
        ]),
        /--rate-limit must be a whole number/,
      );
      assertFails(await keygate(dataDir, ['keys', 'frobnicate']), /unknown command "keys frobnicate"/);
      assertFails(await keygate(dataDir, ['keys', 'create', '--bogus']), /bogus/);
    });
  });

  describe('keygate keys list', () => {
    it('lists keys with their secrets’ prefixes, never a token, filtered by --env', async () => {
      const live = await createKey();
      const test = await keygate(dataDir, [
        'keys',
        'create',
        '--name',
        't',
        '--env',
        'test',
        '--scopes',
        'order:r',
        '--json',
      ]);
      const testKey = JSON.parse(test.stdout) as { id: string; secret: string };
      const json = await keygate(dataDir, ['keys', 'list', '--json']);
      assert.equal(json.code, 0);
      const keys = JSON.parse(json.stdout) as Array<{ id: string }>;
      assert.deepEqual(keys.map((k) => k.id).sort(), [live.id, testKey.id].sort());
      const onlyTest = JSON.parse(
        (await keygate(dataDir, ['keys', 'list', '--env', 'test', '--json'])).stdout,
      );
      assert.deepEqual(
        onlyTest.map((k: { id: string }) => k.id),
        [testKey.id],
      );
      const table = await keygate(dataDir, ['keys', 'list']);
      assert.match(table.stdout, new RegExp(live.prefix));
      for (const out of [json.stdout, table.stdout]) {
        assert.ok(!out.includes(live.secret) && !out.includes(testKey.secret));
        assert.ok(!out.includes('$argon2'));
      }
    });
  });

  describe('keygate keys rotate, close-secret and revoke', () => {
    it('rotates with an overlap, refuses a second rotation, closes the old secret and revokes', async () => {
      const created = await createKey();
      const rotate = await keygate(dataDir, ['keys', 'rotate', created.id, '--overlap-days', '2', '--json']);
      assert.equal(rotate.code, 0, rotate.stderr);
      const rotated = JSON.parse(rotate.stdout) as {
        secret: string;
        prefix: string;
        oldSecret: { closesAt: string };
      };
      assert.notEqual(rotated.secret, created.secret);
      assert.ok(Date.parse(rotated.oldSecret.closesAt) > Date.now() + 2 * 86_400_000 - 60_000);
      assertFails(await keygate(dataDir, ['keys', 'rotate', created.id]), /ROTATION_IN_PROGRESS/);
      const close = await keygate(dataDir, ['keys', 'close-secret', created.id]);
      assert.equal(close.code, 0, close.stderr);
      assertFails(await keygate(dataDir, ['keys', 'close-secret', created.id]), /NO_ROTATION_IN_PROGRESS/);

      const store = openSqliteKeyStore(join(dataDir, 'gateway.db'));
      try {
        const marker = await store.changeMarker();
        const revoke = await keygate(dataDir, ['keys', 'revoke', created.id]);
        assert.equal(revoke.code, 0, revoke.stderr);
        assert.match(revoke.stdout, /Revoked/);
        assert.notEqual(await store.changeMarker(), marker, 'a running gateway would not notice the revoke');
        assert.equal((await store.getKey(created.id))?.status, 'revoked');
      } finally {
        await store.close();
      }
      assertFails(await keygate(dataDir, ['keys', 'revoke', 'key_unknown']), /KEY_NOT_FOUND/);
    });
  });

  describe('keygate admin create-user', () => {
    it('stores an argon2id hash of a password read from stdin and refuses the same email in another case', async () => {
      const created = await keygate(
        dataDir,
        ['admin', 'create-user', '--email', 'Ops@Example.com', '--password-stdin', '--json'],
        'correct horse battery staple\n',
      );
      assert.equal(created.code, 0, created.stderr);
      assert.equal(JSON.parse(created.stdout).email, 'Ops@Example.com');
      assert.ok(!created.stdout.includes('argon2'));
      const store = openSqliteKeyStore(join(dataDir, 'gateway.db'));
      try {
        const user = await store.findAdminByEmail('ops@example.com');
        assert.match(user?.passwordHash ?? '', /^\$argon2id\$/);
        assert.ok(await argon2.verify(user!.passwordHash, 'correct horse battery staple'));
      } finally {
        await store.close();
      }
      assertFails(
        await keygate(dataDir, [
          'admin',
          'create-user',
          '--email',
          'ops@example.COM',
          '--password',
          'another long password',
        ]),
        /already exists/,
      );
    });

    it('says where to log in: /admin on the gateway port', async () => {
      const created = await keygate(
        dataDir,
        ['admin', 'create-user', '--email', 'ops@example.com', '--password-stdin'],
        'correct horse battery staple\n',
        { GATEWAY_PORT: '9090' },
      );
      assert.equal(created.code, 0, created.stderr);
      assert.match(created.stdout, /^Created administrator adm_\w+ <ops@example\.com>$/m);
      assert.match(created.stdout, /at http:\/\/localhost:9090\/admin$/m);
      assert.ok(!created.stdout.includes('correct horse'));
    });

    it('refuses a short password, a bad email and a missing password source with exit 2', async () => {
      assertFails(
        await keygate(dataDir, ['admin', 'create-user', '--email', 'a@b.co', '--password', 'short']),
        /12 characters/,
      );
      assertFails(
        await keygate(dataDir, ['admin', 'create-user', '--email', 'nope', '--password', 'long enough pass']),
        /email/,
      );
      assertFails(
        await keygate(dataDir, ['admin', 'create-user', '--email', 'a@b.co']),
        /--password-stdin or --password/,
      );
    });
  });
});

describe('keygate CLI with REDIS_URL set', function () {
  this.timeout(60_000);
  let redis: TestRedis;
  let dir: string;
  before(async () => {
    redis = await startRedis();
  });
  after(async () => {
    await redis?.stop();
  });
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'keygate-cli-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  const onRedis = (args: string[], url = redis.url, stdin?: string) =>
    keygate(join(dir, 'data'), args, stdin, {
      REDIS_URL: url,
      KEYGATE_REDIS_PREFIX: redis.keyPrefix,
      KEYGATE_SECRET_TAG_KEY: TEST_TAG_KEY,
    });

  describe('without KEYGATE_SECRET_TAG_KEY', () => {
    it('refuses in one line naming the variable and how to make one, creating nothing', async () => {
      const run = await keygate(join(dir, 'data'), ['keys', 'list', '--json'], undefined, {
        REDIS_URL: redis.url,
        KEYGATE_REDIS_PREFIX: redis.keyPrefix,
      });
      assert.notEqual(run.code, 0);
      assert.match(run.stderr, /KEYGATE_SECRET_TAG_KEY: required with a shared store/);
      assert.match(run.stderr, /openssl rand -base64 32/);
    });
  });

  describe('keygate keys create, rotate, revoke', () => {
    it('works on the shared Redis under KEYGATE_REDIS_PREFIX and writes no SQLite file', async () => {
      const run = await onRedis([
        'keys',
        'create',
        '--name',
        'ops',
        '--env',
        'live',
        '--scopes',
        'auth:rw',
        '--json',
      ]);
      assert.equal(run.code, 0, run.stderr);
      const created = JSON.parse(run.stdout) as { id: string; secret: string };
      assert.equal((await onRedis(['keys', 'rotate', created.id])).code, 0);
      assert.equal((await onRedis(['keys', 'revoke', created.id])).code, 0);
      const store = await openRedisKeyStore(redis.url, { keyPrefix: redis.keyPrefix });
      try {
        const key = await store.getKey(created.id);
        assert.equal(key?.status, 'revoked');
        const { items } = await store.listActivity({ keyId: created.id });
        assert.deepEqual(
          items.map((entry) => entry.action),
          ['key.revoked', 'key.rotated', 'key.created'],
        );
      } finally {
        await store.close();
      }
      assert.equal(existsSync(join(dir, 'data', 'gateway.db')), false);
    });
  });

  describe('keygate admin create-user', () => {
    it('creates the administrator on the shared Redis, where every gateway finds it', async () => {
      const run = await onRedis(
        ['admin', 'create-user', '--email', 'ops@example.com', '--password-stdin'],
        redis.url,
        'correct horse battery staple\n',
      );
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /\/admin$/m);
      const store = await openRedisKeyStore(redis.url, { keyPrefix: redis.keyPrefix });
      try {
        const user = await store.findAdminByEmail('OPS@example.com');
        assert.ok(await argon2.verify(user!.passwordHash, 'correct horse battery staple'));
      } finally {
        await store.close();
      }
      assert.equal(existsSync(join(dir, 'data', 'gateway.db')), false);
    });
  });

  describe('with Redis unreachable', () => {
    it('refuses a change with exit 2 and STORE_UNAVAILABLE', async () => {
      const run = await onRedis(
        ['keys', 'create', '--name', 'ops', '--env', 'live', '--scopes', 'order:r'],
        (await closedPortUrl()).replace('http:', 'redis:'),
      );
      assertFails(run, /STORE_UNAVAILABLE/);
    });
  });

  describe('with a Redis address that accepts connections and never answers', () => {
    // Without its own timeouts the CLI would wait forever here; the test's timeout is the bound,
    // not a wall-clock assertion (the machines are shared and noisy).
    let silent: Server;
    const sockets = new Set<Socket>();
    before(async () => {
      silent = createServer((socket) => {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
      });
      await new Promise<void>((done) => silent.listen(0, '127.0.0.1', done));
    });
    after(() => {
      for (const socket of sockets) socket.destroy();
      silent.close();
    });

    it('gives up with exit 2 and STORE_UNAVAILABLE instead of hanging', async () => {
      const { port } = silent.address() as AddressInfo;
      const run = await onRedis(
        ['keys', 'create', '--name', 'ops', '--env', 'live', '--scopes', 'order:r'],
        `redis://127.0.0.1:${port}`,
      );
      assertFails(run, /STORE_UNAVAILABLE/);
    });
  });
});
