import { generateIdentityKeyPair } from '@keygate/identity';
import { type GatewayConfig, loadConfig } from '../../src/config.ts';
import type { TestRedis } from './redis-server.ts';
import type { TestUpstream } from './upstream.ts';

/** The tag key every test instance on a shared Redis gets (a shared store requires one). */
export const TEST_TAG_KEY = Buffer.alloc(32, 5).toString('base64url');

/**
 * The config of a gateway instance as main.ts would read it for `redis`: live and test calls to
 * `upstream`, a new identity key, no data directory in use; `env` adds or overrides variables.
 * Instances opened with one config share the Redis and the signing key.
 */
export async function redisGatewayConfig(
  redis: TestRedis,
  upstream: TestUpstream,
  env: Record<string, string> = {},
): Promise<Readonly<GatewayConfig>> {
  const { privateJwk } = await generateIdentityKeyPair();
  return loadConfig({
    KEYGATE_DATA_DIR: '/tmp/keygate-test-unused',
    KEYGATE_UPSTREAM_LIVE: upstream.url,
    KEYGATE_UPSTREAM_TEST: upstream.url,
    KEYGATE_IDENTITY_PRIVATE_JWK: JSON.stringify(privateJwk),
    REDIS_URL: redis.url,
    KEYGATE_REDIS_PREFIX: redis.keyPrefix,
    KEYGATE_SECRET_TAG_KEY: TEST_TAG_KEY,
    ...env,
  });
}
