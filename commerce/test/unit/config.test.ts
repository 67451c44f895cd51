import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ConfigError, parseConfig } from '../../src/config.ts';

describe('parseConfig', () => {
  describe('with an empty environment', () => {
    it('returns the documented defaults, frozen', () => {
      const config = parseConfig({});
      assert.equal(config.environment, 'live');
      assert.equal(config.port, 8081);
      assert.equal(config.host, '127.0.0.1');
      assert.equal(config.dbFile, join('./data', 'commerce-live.db'));
      assert.deepEqual(config.jwks, {
        kind: 'url',
        url: new URL('http://127.0.0.1:8080/.well-known/jwks.json'),
      });
      assert.equal(config.audience, 'commerce');
      assert.equal(config.logLevel, 'info');
      assert.ok(Object.isFrozen(config));
    });
    it('keeps webhooks off private addresses and retries on the documented schedule', () => {
      const { webhooks } = parseConfig({});
      assert.deepEqual(webhooks, {
        allowPrivateAddresses: false,
        retryScheduleMs: [0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000],
        jitterRatio: 0.2,
        timeoutMs: 10_000,
        concurrency: 8,
        disableAfterMs: 5 * 24 * 3_600_000,
        pollIntervalMs: 1000,
        retentionMs: 30 * 86_400_000,
      });
      assert.ok(Object.isFrozen(webhooks));
    });
  });

  describe('with webhook overrides', () => {
    it('reads KEYGATE_WEBHOOKS_ALLOW_PRIVATE and the COMMERCE_WEBHOOK_* variables', () => {
      const { webhooks } = parseConfig({
        KEYGATE_WEBHOOKS_ALLOW_PRIVATE: 'true',
        COMMERCE_WEBHOOK_RETRY_SCHEDULE: '0, 0.05,0.2',
        COMMERCE_WEBHOOK_JITTER: '0',
        COMMERCE_WEBHOOK_TIMEOUT_MS: '250',
        COMMERCE_WEBHOOK_CONCURRENCY: '2',
        COMMERCE_WEBHOOK_DISABLE_AFTER_SECONDS: '60',
        COMMERCE_WEBHOOK_POLL_MS: '20',
        COMMERCE_WEBHOOK_RETENTION_DAYS: '7',
      });
      assert.deepEqual(webhooks, {
        allowPrivateAddresses: true,
        retryScheduleMs: [0, 50, 200],
        jitterRatio: 0,
        timeoutMs: 250,
        concurrency: 2,
        disableAfterMs: 60_000,
        pollIntervalMs: 20,
        retentionMs: 7 * 86_400_000,
      });
    });
    it('names every bad webhook variable in one line', () => {
      for (const [name, value] of [
        ['KEYGATE_WEBHOOKS_ALLOW_PRIVATE', 'yes'],
        ['COMMERCE_WEBHOOK_RETRY_SCHEDULE', '5,10'],
        ['COMMERCE_WEBHOOK_RETRY_SCHEDULE', '0,,10'],
        ['COMMERCE_WEBHOOK_RETRY_SCHEDULE', '0,-1'],
        ['COMMERCE_WEBHOOK_JITTER', '0.9'],
        ['COMMERCE_WEBHOOK_TIMEOUT_MS', '0'],
        ['COMMERCE_WEBHOOK_CONCURRENCY', 'many'],
        ['COMMERCE_WEBHOOK_RETENTION_DAYS', '0'],
        ['COMMERCE_WEBHOOK_RETENTION_DAYS', '1.5'],
      ] as const) {
        assert.throws(
          () => parseConfig({ [name]: value }),
          (error: unknown) => error instanceof ConfigError && error.message.startsWith(name),
          `${name}=${value}`,
        );
      }
    });
  });

  describe('with the test environment', () => {
    it('uses COMMERCE_TEST_PORT and the test database', () => {
      const config = parseConfig({
        COMMERCE_ENV: 'test',
        COMMERCE_TEST_PORT: '9092',
        KEYGATE_DATA_DIR: '/d',
      });
      assert.equal(config.port, 9092);
      assert.equal(config.dbFile, join('/d', 'commerce-test.db'));
    });
  });

  describe('with overrides', () => {
    it('lets COMMERCE_PORT, COMMERCE_DB_FILE and KEYGATE_JWKS_FILE win', () => {
      const config = parseConfig({
        COMMERCE_PORT: '9000',
        COMMERCE_LIVE_PORT: '9001',
        COMMERCE_DB_FILE: '/x/y.db',
        KEYGATE_JWKS_FILE: '/keys.json',
        KEYGATE_JWKS_URL: 'https://gw.example/jwks.json',
        COMMERCE_AUDIENCE: 'shop',
        LOG_LEVEL: 'warn',
      });
      assert.equal(config.port, 9000);
      assert.equal(config.dbFile, '/x/y.db');
      assert.deepEqual(config.jwks, { kind: 'file', path: '/keys.json' });
      assert.equal(config.audience, 'shop');
      assert.equal(config.logLevel, 'warn');
    });
    it('reads COMMERCE_RESPONSE_CACHE_MIB (default 16, 0 turns the cache off) and refuses bad values', () => {
      assert.equal(parseConfig({}).responseCacheBytes, 16 * 1024 * 1024);
      assert.equal(parseConfig({ COMMERCE_RESPONSE_CACHE_MIB: '0' }).responseCacheBytes, 0);
      assert.equal(parseConfig({ COMMERCE_RESPONSE_CACHE_MIB: '64' }).responseCacheBytes, 64 * 1024 * 1024);
      for (const bad of ['-1', '1.5', 'lots', '1025']) {
        assert.throws(
          () => parseConfig({ COMMERCE_RESPONSE_CACHE_MIB: bad }),
          (error: unknown) =>
            error instanceof ConfigError &&
            /COMMERCE_RESPONSE_CACHE_MIB must be an integer 0\.\.1024/.test(error.message),
        );
      }
    });
    it('refuses the crash test hook COMMERCE_TEST_HANG_AFTER_COMMIT unless KEYGATE_BENCH_MODE=1', () => {
      assert.equal(parseConfig({}).hangAfterCommitSuffix, null);
      assert.throws(
        () => parseConfig({ COMMERCE_TEST_HANG_AFTER_COMMIT: ':checkout' }),
        (error: unknown) =>
          error instanceof ConfigError && error.message.startsWith('COMMERCE_TEST_HANG_AFTER_COMMIT'),
      );
      const bench = parseConfig({ COMMERCE_TEST_HANG_AFTER_COMMIT: ':checkout', KEYGATE_BENCH_MODE: '1' });
      assert.equal(bench.hangAfterCommitSuffix, ':checkout');
    });
    it('treats empty variables as unset', () => {
      assert.equal(parseConfig({ COMMERCE_PORT: '', COMMERCE_ENV: ' ' }).port, 8081);
    });
  });

  describe('with bad values', () => {
    it('throws one line naming every problem', () => {
      assert.throws(
        () =>
          parseConfig({
            COMMERCE_ENV: 'prod',
            COMMERCE_PORT: 'eighty',
            COMMERCE_LIVE_PORT: '70000',
            KEYGATE_JWKS_URL: 'ftp://x',
            LOG_LEVEL: 'loud',
          }),
        (error: unknown) => {
          assert.ok(error instanceof ConfigError);
          assert.doesNotMatch(error.message, /\n/);
          for (const name of [
            'COMMERCE_ENV',
            'COMMERCE_PORT',
            'COMMERCE_LIVE_PORT',
            'KEYGATE_JWKS_URL',
            'LOG_LEVEL',
          ]) {
            assert.match(error.message, new RegExp(name));
          }
          assert.match(error.message, /"prod"/);
          return true;
        },
      );
    });
  });
});
