import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { newKeyChange } from '../../gateway/src/keys/create-key.ts';
import { createArgon2Hasher } from '../../gateway/src/keys/hasher.ts';
import { createSecretTagger, loadTagKey, parseTagKey } from '../../gateway/src/keys/secret-tag.ts';
import { checksumOf, generateToken } from '../../gateway/src/keys/token.ts';
import { openRedisKeyStore } from '../../gateway/src/store/redis/redis-store.ts';
import { openSqliteKeyStore } from '../../gateway/src/store/sqlite/sqlite-store.ts';
import type { KeyStore } from '../../gateway/src/store/store.ts';
import { startRedis, type TestRedis } from '../support/redis.ts';
import { json, type System, startSystem } from '../support/system.ts';
import { tally } from '../support/traffic.ts';

/**
 * Refusing is the cheap path and a restart turns no good key into a 503 (#36), on real processes:
 * 200 distinct keys' first calls at once on a fresh instance, a key created right after its lookup
 * was refused, wrong secrets never accepted, and the negative cache within its bound.
 */
const CHANNELS = '/v2/channels';
const NEGATIVE_BOUND = 100;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

interface Key {
  id: string;
  prefix: string;
  secret: string;
}

const randomBase62 = (length: number) => [...randomBytes(length)].map((byte) => BASE62[byte % 62]).join('');

/** A well-formed token (valid checksum) for `prefix` (`kg_<env>_<lookup>`) with a random secret. */
function tokenFor(prefix: string): string {
  const body = `${prefix}_${randomBase62(22)}`;
  return body + checksumOf(body);
}

/** The value of one sample of a Prometheus text exposition, 0 when absent. */
function sample(metrics: string, line: string): number {
  const found = metrics.split('\n').find((candidate) => candidate.startsWith(`${line} `));
  return found ? Number(found.slice(line.length + 1)) : 0;
}

for (const backend of ['sqlite', 'redis'] as const) {
  describe(`refusals and first calls, ${backend === 'sqlite' ? 'SQLite' : 'two instances on Redis'}`, function () {
    this.timeout(180_000);
    let redis: TestRedis | undefined;
    let system: System;
    let admin: Key;
    /** The instance keys are created through, and the one whose first calls and refusals are watched. */
    const creator = 0;
    const watched = backend === 'sqlite' ? 0 : 1;

    const metricsOf = async (instance: number) =>
      (await fetch(`${system.gateways[instance]!.url}/metrics`)).text();

    async function createViaApi(name: string): Promise<Key> {
      const res = await system.callOn(creator, admin.secret, '/v2/auth/keys', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          name,
          environment: 'live',
          scopes: ['article:r'],
          rateLimit: { perMinute: 1000 },
        }),
      });
      assert.equal(res.status, 201, await res.clone().text());
      return json<Key>(res);
    }

    /** A store of the system's own, as another process (the CLI) opens it. */
    async function openStoreLikeTheCli(): Promise<KeyStore> {
      if (redis) return openRedisKeyStore(redis.url, { keyPrefix: redis.keyPrefix });
      return openSqliteKeyStore(join(system.dataDir, 'gateway.db'));
    }

    before(async () => {
      if (backend === 'redis') redis = await startRedis();
      system = await startSystem({
        gateways: backend === 'redis' ? 2 : 1,
        ...(redis ? { redisUrl: redis.url, redisEnv: { KEYGATE_REDIS_PREFIX: redis.keyPrefix } } : {}),
        gatewayEnv: { KEYGATE_NEGATIVE_CACHE_MAX_ENTRIES: String(NEGATIVE_BOUND) },
      });
      admin = await system.createKey({
        name: 'ops',
        env: 'live',
        scopes: ['auth:rw', 'article:r'],
        extra: ['--rate-limit', '100000'],
      });
    });

    after(async () => {
      await system?.stop();
      await redis?.stop();
    });

    describe('200 distinct valid keys making their first call at once on a fresh instance', () => {
      it('answers every one 200, without argon2', async () => {
        const keys: Key[] = [];
        for (let i = 0; i < 200; i += 10) {
          keys.push(...(await Promise.all(Array.from({ length: 10 }, (_, j) => createViaApi(`k${i + j}`)))));
        }
        await system.gateways[watched]!.stop();
        await system.restartGateway(watched);
        const answers = await Promise.all(
          keys.map(async (key) => {
            const res = await system.callOn(watched, key.secret, CHANNELS);
            await res.arrayBuffer();
            return res.status;
          }),
        );
        assert.deepEqual(tally(answers), { 200: 200 });
        const metrics = await metricsOf(watched);
        assert.equal(sample(metrics, 'keygate_tag_verifications_total'), 200);
        assert.equal(sample(metrics, 'keygate_argon2_verifications_total{result="match"}'), 0);
      });
    });

    describe('a key created right after its lookup was refused', () => {
      it('works on the refusing instance on its very next call', async () => {
        // The lookup of a key made through the API is random, so the key is written as another
        // process (the CLI) writes one, with a token chosen first and refused first.
        const store = await openStoreLikeTheCli();
        try {
          const token = generateToken('live');
          for (let i = 0; i < 3; i++) {
            const refused = await system.callOn(watched, token.token, CHANNELS);
            assert.equal(refused.status, 401);
          }
          const tagText = system.env.KEYGATE_SECRET_TAG_KEY;
          const tagKey = await loadTagKey({
            key: tagText ? parseTagKey(tagText) : null,
            keyFile: join(system.dataDir, 'secret-tag-key'),
          });
          const hasher = createArgon2Hasher({}, createSecretTagger(tagKey));
          const change = newKeyChange({
            name: 'late',
            grant: {
              environment: 'live',
              scopes: ['article:r'],
              expiresAt: null,
              ipAllowlist: [],
              rateLimit: { perMinute: 1000 },
            },
            token,
            hash: await hasher.hash(token.token),
            tag: hasher.tag!(token.token),
            at: new Date().toISOString(),
            actor: { type: 'system', id: 'keygate' },
            sourceIp: null,
          });
          assert.equal(await store.commitChange(change), true);
          const res = await system.callOn(watched, token.token, CHANNELS);
          assert.equal(res.status, 200, await res.text());
        } finally {
          await store.close();
        }
      });
    });

    describe('wrong secrets and garbage, on every instance', () => {
      it('never accepts one, and keeps the negative cache within its bound', async () => {
        const real = await createViaApi('real');
        const tokens = [
          ...Array.from({ length: 300 }, () => tokenFor(real.prefix)),
          ...Array.from({ length: 300 }, () => tokenFor(`kg_live_${randomBase62(8)}`)),
        ];
        for (let instance = 0; instance < system.gateways.length; instance++) {
          for (let i = 0; i < tokens.length; i += 50) {
            const statuses = await Promise.all(
              tokens.slice(i, i + 50).map(async (token) => {
                const res = await system.callOn(instance, token, CHANNELS);
                await res.arrayBuffer();
                return res.status;
              }),
            );
            assert.deepEqual(tally(statuses), { 401: statuses.length });
          }
          // Repeated: answered from the negative cache (or the store again), never accepted.
          for (const token of tokens.slice(0, 20)) {
            assert.equal((await system.callOn(instance, token, CHANNELS)).status, 401);
          }
          const metrics = await metricsOf(instance);
          const held = sample(metrics, 'keygate_negative_cache_entries');
          assert.ok(held > 0 && held <= NEGATIVE_BOUND, `negative cache holds ${held}`);
        }
        assert.equal((await system.callOn(watched, real.secret, CHANNELS)).status, 200);
      });
    });
  });
}
