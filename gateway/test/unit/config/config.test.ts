import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../../src/config.ts';

function routesFile(table: unknown): string {
  const file = join(mkdtempSync(join(tmpdir(), 'keygate-routes-')), 'routes.json');
  writeFileSync(file, JSON.stringify(table));
  return file;
}

/** A valid tag key: base64 of 32 bytes, as `openssl rand -base64 32` prints one. */
const TAG_KEY = Buffer.alloc(32, 9).toString('base64');

const TABLE = {
  upstreams: { shop: { audience: 'shop', live: 'http://127.0.0.1:9001', test: 'http://127.0.0.1:9002' } },
  defaultUpstream: 'shop',
  routes: [{ method: 'POST', path: '/v2/carts/{id}:checkout', scope: 'order:rw' }],
};

describe('loadConfig', () => {
  it('accepts a secret tag key (what every replica on a shared store is given)', () => {
    const key = Buffer.alloc(32, 7);
    const config = loadConfig({ KEYGATE_SECRET_TAG_KEY: key.toString('base64') });
    assert.deepEqual(config.secretTagKey, key);
    assert.ok(Object.isFrozen(config));
  });

  describe('with an empty environment', () => {
    it('returns the documented defaults, frozen', () => {
      const config = loadConfig({});
      assert.equal(config.port, 8080);
      assert.equal(config.host, '127.0.0.1');
      assert.match(config.databaseFile, /data\/gateway\.db$/);
      assert.match(config.identityKeyFile, /data\/identity-key\.json$/);
      assert.deepEqual(config.trustedProxies, []);
      assert.deepEqual(config.expiryReminderDays, [7, 1]);
      assert.equal(config.maxOverlapDays, 7);
      assert.equal(config.defaultRateLimitPerMinute, 600);
      assert.equal(config.usageFlushMs, 2000);
      assert.equal(config.logRetentionDays, 14);
      assert.equal(config.upstreamTimeoutMs, 30_000);
      assert.equal(config.upstreamConnections, 256);
      assert.equal(config.cacheMaxEntries, 20_000);
      assert.equal(config.negativeCacheMaxEntries, 10_000);
      assert.equal(config.negativeCacheTtlMs, 60_000);
      assert.equal(config.usageRetentionDays, 90);
      assert.equal(config.maxConcurrentVerifications, 2 * availableParallelism());
      assert.equal(config.redisUrl, null);
      assert.equal(config.redisPrefix, 'keygate:');
      assert.equal(config.redisStalenessMs, 10_000);
      assert.equal(config.redisConnectTimeoutMs, 5000);
      assert.equal(config.redisCommandTimeoutMs, 1000);
      assert.equal(config.redisCircuitTimeouts, 3);
      assert.equal(config.redisCircuitProbeMs, 500);
      assert.equal(config.keepAliveTimeoutMs, 65_000);
      assert.equal(config.shutdownGraceMs, 10_000);
      assert.equal(config.identityPrivateJwk, null);
      assert.equal(config.secretTagKey, null);
      assert.match(config.secretTagKeyFile, /data\/secret-tag-key$/);
      assert.equal(config.keyMaxConcurrent, 32);
      assert.equal(config.requestTimeoutMs, 30_000);
      assert.equal(config.bodyTimeoutMs, 10_000);
      assert.equal(config.bodyMinBytesPerSecond, 1024);
      assert.equal(config.bufferedBodyMaxBytes, 65_536);
      assert.equal(config.routes.upstreams.commerce?.live, 'http://127.0.0.1:8081');
      assert.equal(config.routes.upstreams.commerce?.test, 'http://127.0.0.1:8082');
      assert.ok(Object.isFrozen(config) && Object.isFrozen(config.routes.routes));
    });
  });

  describe('with overrides', () => {
    it('applies them, the per-upstream variable winning over the default-upstream one', () => {
      const config = loadConfig({
        GATEWAY_PORT: '9090',
        KEYGATE_DATA_DIR: '/srv/keygate',
        KEYGATE_UPSTREAM_LIVE: 'http://live.internal:1',
        KEYGATE_UPSTREAM_TEST: 'http://test.internal:2',
        KEYGATE_UPSTREAM_COMMERCE_TEST: 'http://specific.internal:3',
        KEYGATE_TRUSTED_PROXIES: '10.0.0.1, 192.168.0.0/16,::1',
        KEYGATE_EXPIRY_REMINDER_DAYS: '1,14,7,7',
        KEYGATE_DEFAULT_RATE_LIMIT: '120/min',
        REDIS_URL: 'redis://127.0.0.1:6379',
        KEYGATE_SECRET_TAG_KEY: TAG_KEY,
        KEYGATE_NEGATIVE_CACHE_MAX_ENTRIES: '500',
        KEYGATE_NEGATIVE_CACHE_TTL_MS: '2000',
        KEYGATE_REDIS_PREFIX: 'shop-a:',
        KEYGATE_REDIS_STALENESS_MS: '3000',
        KEYGATE_REDIS_CIRCUIT_TIMEOUTS: '5',
        KEYGATE_REDIS_CIRCUIT_PROBE_MS: '250',
        GATEWAY_KEEP_ALIVE_TIMEOUT_MS: '75000',
        KEYGATE_CACHE_MAX_ENTRIES: '',
        KEYGATE_USAGE_RETENTION_DAYS: '30',
        KEYGATE_MAX_CONCURRENT_VERIFICATIONS: '3',
      });
      assert.equal(config.port, 9090);
      assert.equal(config.databaseFile, '/srv/keygate/gateway.db');
      assert.equal(config.routes.upstreams.commerce?.live, 'http://live.internal:1');
      assert.equal(config.routes.upstreams.commerce?.test, 'http://specific.internal:3');
      assert.deepEqual(config.trustedProxies, ['10.0.0.1', '192.168.0.0/16', '::1']);
      assert.deepEqual(config.expiryReminderDays, [14, 7, 1]);
      assert.equal(config.defaultRateLimitPerMinute, 120);
      assert.equal(config.redisUrl, 'redis://127.0.0.1:6379');
      assert.equal(config.redisPrefix, 'shop-a:');
      assert.equal(config.redisStalenessMs, 3000);
      assert.equal(config.redisCircuitTimeouts, 5);
      assert.equal(config.redisCircuitProbeMs, 250);
      assert.equal(config.keepAliveTimeoutMs, 75_000);
      assert.equal(config.cacheMaxEntries, 20_000);
      assert.equal(config.usageRetentionDays, 30);
      assert.equal(config.maxConcurrentVerifications, 3);
      assert.equal(config.negativeCacheMaxEntries, 500);
      assert.equal(config.negativeCacheTtlMs, 2000);
    });

    it('takes a P-256 or an Ed25519 identity JWK from KEYGATE_IDENTITY_PRIVATE_JWK', () => {
      for (const jwk of [
        { kty: 'EC', crv: 'P-256', d: 'ZA', x: 'eA', y: 'eQ', kid: 'k1' },
        { kty: 'OKP', crv: 'Ed25519', d: 'ZA', x: 'eA', kid: 'k1' },
      ]) {
        const config = loadConfig({ KEYGATE_IDENTITY_PRIVATE_JWK: JSON.stringify(jwk) });
        assert.deepEqual(config.identityPrivateJwk, jwk);
      }
    });

    it('refuses an identity JWK of another curve, or without its private part, in one line', () => {
      for (const jwk of [
        { kty: 'EC', crv: 'P-384', d: 'ZA', x: 'eA', y: 'eQ' },
        { kty: 'EC', crv: 'P-256', x: 'eA', y: 'eQ' },
        { kty: 'RSA', n: 'bg', e: 'AQAB', d: 'ZA' },
      ]) {
        assert.throws(
          () => loadConfig({ KEYGATE_IDENTITY_PRIVATE_JWK: JSON.stringify(jwk) }),
          (error: Error) =>
            !error.message.includes('\n') &&
            /KEYGATE_IDENTITY_PRIVATE_JWK: must be a private P-256 \(kty EC\) or Ed25519 \(kty OKP\) JWK/.test(
              error.message,
            ),
        );
      }
    });
  });

  describe('with the Redis Cluster or Sentinel variables', () => {
    it('takes Cluster seed nodes, IPv6 in brackets too', () => {
      const config = loadConfig({
        KEYGATE_REDIS_CLUSTER_NODES: 'redis-a:7000, 10.0.0.2:7001,[::1]:7002',
        KEYGATE_SECRET_TAG_KEY: TAG_KEY,
      });
      assert.deepEqual(config.redisUrl, {
        clusterNodes: [
          { host: 'redis-a', port: 7000 },
          { host: '10.0.0.2', port: 7001 },
          { host: '::1', port: 7002 },
        ],
      });
    });

    it('takes sentinels with the master name', () => {
      const config = loadConfig({
        KEYGATE_REDIS_SENTINELS: 's1:26379,s2:26379',
        KEYGATE_REDIS_SENTINEL_NAME: 'mymaster',
        KEYGATE_SECRET_TAG_KEY_FILE: '/run/secrets/keygate-tag-key',
      });
      assert.deepEqual(config.redisUrl, {
        sentinels: [
          { host: 's1', port: 26379 },
          { host: 's2', port: 26379 },
        ],
        name: 'mymaster',
      });
    });

    for (const [what, env, pattern] of [
      [
        'a node without a port',
        { KEYGATE_REDIS_CLUSTER_NODES: 'redis-a' },
        /KEYGATE_REDIS_CLUSTER_NODES: 'redis-a' is not a host:port/,
      ],
      [
        'a port out of range',
        { KEYGATE_REDIS_SENTINELS: 's1:99999', KEYGATE_REDIS_SENTINEL_NAME: 'm' },
        /KEYGATE_REDIS_SENTINELS/,
      ],
      [
        'sentinels without a name',
        { KEYGATE_REDIS_SENTINELS: 's1:26379' },
        /KEYGATE_REDIS_SENTINEL_NAME: is required/,
      ],
      [
        'a name without sentinels',
        { KEYGATE_REDIS_SENTINEL_NAME: 'm' },
        /KEYGATE_REDIS_SENTINEL_NAME: needs KEYGATE_REDIS_SENTINELS/,
      ],
      [
        'REDIS_URL and Cluster nodes',
        { REDIS_URL: 'redis://r:6379', KEYGATE_REDIS_CLUSTER_NODES: 'a:1' },
        /set only one of/,
      ],
      [
        'Cluster nodes and sentinels',
        {
          KEYGATE_REDIS_CLUSTER_NODES: 'a:1',
          KEYGATE_REDIS_SENTINELS: 's:2',
          KEYGATE_REDIS_SENTINEL_NAME: 'm',
        },
        /set only one of/,
      ],
    ] as const) {
      it(`refuses ${what} in one line`, () => {
        assert.throws(
          () => loadConfig(env),
          (error: Error) => !error.message.includes('\n') && pattern.test(error.message),
        );
      });
    }
  });

  describe('with several bad values', () => {
    it('throws one line naming every problem', () => {
      assert.throws(
        () =>
          loadConfig({
            GATEWAY_PORT: 'eighty',
            KEYGATE_TRUSTED_PROXIES: '10.0.0.1,not-an-ip',
            KEYGATE_USAGE_FLUSH_MS: '-5',
            KEYGATE_USAGE_RETENTION_DAYS: '0',
            KEYGATE_MAX_CONCURRENT_VERIFICATIONS: 'many',
            KEYGATE_UPSTREAM_LIVE: 'ftp://nope',
            KEYGATE_IDENTITY_PRIVATE_JWK: '{"kty":"RSA"}',
            LOG_LEVEL: 'loud',
            REDIS_URL: 'http://not-redis',
            KEYGATE_REDIS_PREFIX: 'has space',
            KEYGATE_REDIS_STALENESS_MS: '0',
            KEYGATE_REDIS_CIRCUIT_TIMEOUTS: 'never',
            KEYGATE_REDIS_CIRCUIT_PROBE_MS: '-1',
            KEYGATE_UPSTREAM_CONNECTIONS: '0',
            KEYGATE_SECRET_TAG_KEY: 'too-short',
            KEYGATE_KEY_MAX_CONCURRENT: '0',
            KEYGATE_REQUEST_TIMEOUT_MS: 'soon',
            KEYGATE_BODY_TIMEOUT_MS: '-1',
            KEYGATE_BODY_MIN_BYTES_PER_SECOND: '1.5',
            KEYGATE_BUFFERED_BODY_MAX_BYTES: 'lots',
            KEYGATE_NEGATIVE_CACHE_MAX_ENTRIES: '0',
            KEYGATE_NEGATIVE_CACHE_TTL_MS: 'forever',
          }),
        (error: Error) => {
          assert.doesNotMatch(error.message, /\n/);
          for (const name of [
            'GATEWAY_PORT',
            'KEYGATE_TRUSTED_PROXIES',
            'KEYGATE_USAGE_FLUSH_MS',
            'KEYGATE_USAGE_RETENTION_DAYS',
            'KEYGATE_MAX_CONCURRENT_VERIFICATIONS',
            'upstream override',
            'KEYGATE_IDENTITY_PRIVATE_JWK',
            'LOG_LEVEL',
            'REDIS_URL',
            'KEYGATE_REDIS_PREFIX',
            'KEYGATE_REDIS_STALENESS_MS',
            'KEYGATE_REDIS_CIRCUIT_TIMEOUTS',
            'KEYGATE_REDIS_CIRCUIT_PROBE_MS',
            'KEYGATE_UPSTREAM_CONNECTIONS',
            'KEYGATE_SECRET_TAG_KEY',
            'KEYGATE_KEY_MAX_CONCURRENT',
            'KEYGATE_REQUEST_TIMEOUT_MS',
            'KEYGATE_BODY_TIMEOUT_MS',
            'KEYGATE_BODY_MIN_BYTES_PER_SECOND',
            'KEYGATE_BUFFERED_BODY_MAX_BYTES',
            'KEYGATE_NEGATIVE_CACHE_MAX_ENTRIES',
            'KEYGATE_NEGATIVE_CACHE_TTL_MS',
          ]) {
            assert.match(error.message, new RegExp(name), `mentions ${name}: ${error.message}`);
          }
          return true;
        },
      );
    });
  });

  describe('with a shared store and no secret tag key', () => {
    for (const [what, env] of [
      ['REDIS_URL', { REDIS_URL: 'redis://r:6379' }],
      ['Cluster nodes', { KEYGATE_REDIS_CLUSTER_NODES: 'a:7000,b:7001' }],
      ['Sentinels', { KEYGATE_REDIS_SENTINELS: 's1:26379', KEYGATE_REDIS_SENTINEL_NAME: 'm' }],
    ] as const) {
      it(`refuses ${what} in one line naming the variable and how to make a key`, () => {
        assert.throws(
          () => loadConfig(env),
          (error: Error) => {
            assert.doesNotMatch(error.message, /\n/);
            assert.match(error.message, /^KEYGATE_SECRET_TAG_KEY: required with a shared store/);
            assert.match(error.message, /openssl rand -base64 32/);
            assert.match(error.message, /KEYGATE_SECRET_TAG_KEY_FILE/);
            return true;
          },
        );
      });
    }

    it('starts with the key, or a key file, given', () => {
      assert.ok(loadConfig({ REDIS_URL: 'redis://r:6379', KEYGATE_SECRET_TAG_KEY: TAG_KEY }).secretTagKey);
      const config = loadConfig({ REDIS_URL: 'redis://r:6379', KEYGATE_SECRET_TAG_KEY_FILE: '/run/k' });
      assert.equal(config.secretTagKeyFile, '/run/k');
    });

    it('needs none on SQLite (the key file is made in the data directory)', () => {
      assert.match(loadConfig({}).secretTagKeyFile, /data\/secret-tag-key$/);
    });
  });

  describe('with a custom route table file', () => {
    it('loads a valid one', () => {
      const config = loadConfig({ KEYGATE_ROUTES_FILE: routesFile(TABLE) });
      assert.equal(config.routes.routes[0]?.path, '/v2/carts/{id}:checkout');
      assert.equal(config.routes.upstreams.shop?.live, 'http://127.0.0.1:9001');
    });

    it('refuses an unknown scope, a bad pattern, a missing upstream and a reserved path together', () => {
      const bad = {
        ...TABLE,
        routes: [
          { method: 'GET', path: '/v2/a', scope: 'rocket:rw' },
          { method: 'GET', path: '/v2/b/{id', scope: 'order:r' },
          { method: 'GET', path: '/v2/c', scope: 'order:r', upstream: 'ghost' },
          { method: 'GET', path: '/v2/auth/keys/{id}', scope: 'auth:r' },
        ],
      };
      assert.throws(
        () => loadConfig({ KEYGATE_ROUTES_FILE: routesFile(bad) }),
        (error: Error) => {
          assert.match(error.message, /routes\.0\.scope/);
          assert.match(error.message, /routes\.1\.path/);
          assert.match(error.message, /no upstream "ghost"/);
          assert.match(error.message, /routes\.3\.path.*served by the gateway/);
          return true;
        },
      );
    });

    it('loads an upstream with a URL for one environment only, which an override may complete', () => {
      const liveOnly = {
        ...TABLE,
        upstreams: { shop: { audience: 'shop', live: 'http://127.0.0.1:9001' } },
      };
      const config = loadConfig({ KEYGATE_ROUTES_FILE: routesFile(liveOnly) });
      assert.deepEqual(config.routes.upstreams.shop, { audience: 'shop', live: 'http://127.0.0.1:9001' });
      const completed = loadConfig({
        KEYGATE_ROUTES_FILE: routesFile(liveOnly),
        KEYGATE_UPSTREAM_SHOP_TEST: 'http://127.0.0.1:9002',
      });
      assert.equal(completed.routes.upstreams.shop?.test, 'http://127.0.0.1:9002');
    });

    it('refuses an upstream with neither a live nor a test URL', () => {
      const neither = { ...TABLE, upstreams: { shop: { audience: 'shop' } } };
      assert.throws(
        () => loadConfig({ KEYGATE_ROUTES_FILE: routesFile(neither) }),
        /upstreams\.shop: needs a live or a test URL/,
      );
    });

    it('reports a file that cannot be read', () => {
      assert.throws(
        () => loadConfig({ KEYGATE_ROUTES_FILE: '/nonexistent/routes.json' }),
        /KEYGATE_ROUTES_FILE: cannot read/,
      );
    });
  });
});

describe('loadConfig: alerts', () => {
  it('defaults to the Svix schedule, public targets only, and the real clock', () => {
    const config = loadConfig({});
    assert.deepEqual(
      config.alerts.retryScheduleMs,
      [0, 5, 300, 1800, 7200, 18000, 36000, 36000].map((s) => s * 1000),
    );
    assert.equal(config.alerts.allowPrivateAddresses, false);
    assert.equal(config.sweepIntervalMs, 60_000);
    assert.equal(config.testClockOffsetMs, 0);
  });

  it('reads a schedule in seconds and refuses one that does not start at once', () => {
    assert.deepEqual(
      loadConfig({ KEYGATE_ALERTS_RETRY_SCHEDULE: '0,0.5,2' }).alerts.retryScheduleMs,
      [0, 500, 2000],
    );
    assert.throws(
      () => loadConfig({ KEYGATE_ALERTS_RETRY_SCHEDULE: '5,10' }),
      /KEYGATE_ALERTS_RETRY_SCHEDULE/,
    );
  });

  it('moves the clock only in bench mode', () => {
    assert.throws(
      () => loadConfig({ KEYGATE_TEST_CLOCK_OFFSET_MS: '86400000' }),
      /KEYGATE_TEST_CLOCK_OFFSET_MS moves the clock \(tests only\); set KEYGATE_BENCH_MODE=1 too/,
    );
    const moved = loadConfig({ KEYGATE_TEST_CLOCK_OFFSET_MS: '86400000', KEYGATE_BENCH_MODE: '1' });
    assert.equal(moved.testClockOffsetMs, 86_400_000);
  });
});
