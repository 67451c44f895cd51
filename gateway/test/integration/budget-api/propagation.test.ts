import assert from 'node:assert/strict';
import { generateIdentityKeyPair } from '@keygate/identity';
import request from 'supertest';
import { loadConfig } from '../../../src/config.ts';
import { createLogger } from '../../../src/http/logger.ts';
import type { BudgetChange } from '../../../src/model/events.ts';
import { type OpenedGateway, openGateway } from '../../../src/open-gateway.ts';
import { eventually } from '../../store.contract.ts';
import { TEST_TAG_KEY } from '../../support/redis-gateway.ts';
import { startRedis, type TestRedis } from '../../support/redis-server.ts';
import { startEchoUpstream, type TestUpstream } from '../../support/upstream.ts';
import { ADMIN } from './budget-app.ts';

describe('plan and identity changes across two instances on Redis', function () {
  this.timeout(30_000);
  let redis: TestRedis;
  let upstream: TestUpstream;
  let a: OpenedGateway;
  let b: OpenedGateway;
  beforeEach(async () => {
    redis = await startRedis();
    upstream = await startEchoUpstream('live');
    const { privateJwk } = await generateIdentityKeyPair();
    const config = loadConfig({
      KEYGATE_DATA_DIR: '/tmp/keygate-test-unused',
      KEYGATE_UPSTREAM_LIVE: upstream.url,
      KEYGATE_UPSTREAM_TEST: upstream.url,
      KEYGATE_IDENTITY_PRIVATE_JWK: JSON.stringify(privateJwk),
      KEYGATE_SECRET_TAG_KEY: TEST_TAG_KEY,
      REDIS_URL: redis.url,
      KEYGATE_REDIS_PREFIX: redis.keyPrefix,
    });
    const logger = createLogger('silent');
    a = await openGateway(config, { logger });
    b = await openGateway(config, { logger });
  });
  afterEach(async () => {
    await Promise.all([a.close(), b.close()]);
    await upstream.close();
    await redis.stop();
  });

  it('tells the other instance’s budget listeners of every plan and identity change made through the API', async () => {
    const seen: BudgetChange[] = [];
    b.backend.events.subscribeBudget((change) => seen.push(change));
    const manager = await a.keyService.createKey(
      ADMIN,
      { name: 'm', environment: 'live', scopes: ['auth:rw'] },
      { sourceIp: null },
    );
    const call = (method: 'post' | 'patch' | 'delete', path: string) =>
      request(a.gateway.app)[method](path).auth(manager.secret, { type: 'bearer' });
    const plan = (await call('post', '/v2/auth/plans').send({ name: 'Pro' })).body;
    const identity = (await call('post', '/v2/auth/identities').send({ externalId: 'c', planId: plan.id }))
      .body;
    await call('patch', `/v2/auth/plans/${plan.id}`).send({ quotas: [{ period: 'day', limit: 3 }] });
    await call('patch', `/v2/auth/identities/${identity.id}`).send({ planId: null });
    await call('delete', `/v2/auth/plans/${plan.id}`);
    const has = (kind: BudgetChange['kind'], id: string, times: number) =>
      seen.filter((change) => change.kind === kind && change.id === id).length >= times;
    assert.ok(
      await eventually(async () => has('plan', plan.id, 3) && has('identity', identity.id, 2)),
      `B saw ${JSON.stringify(seen)}`,
    );
    const onB = await b.backend.store.getPlan(plan.id);
    assert.equal(onB, null, 'B still reads the deleted plan');
    assert.equal((await b.backend.store.getIdentity(identity.id))?.version, 2);
  });
});
