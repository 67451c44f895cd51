import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { checksumOf } from '../../gateway/src/keys/token.ts';
import { type System, startSystem } from '../support/system.ts';
import { burst, tally } from '../support/traffic.ts';

/**
 * A burst of wrong secrets (valid checksums) on a key's public prefix, against a real gateway with
 * real argon2 (#22, defect 4): the right secret is not locked out, other keys keep being answered,
 * and argon2 never runs: the keys are tagged at creation, so a matching tag is the verification and
 * a wrong one a refusal (keygate_argon2_verifications_total stays absent, #36).
 */
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A well-formed token for the prefix `kg_<env>_<lookup>` with a random, wrong secret. */
function wrongTokenFor(prefix: string): string {
  const secret = [...randomBytes(22)].map((byte) => BASE62[byte % 62]).join('');
  const body = `${prefix}_${secret}`;
  return body + checksumOf(body);
}

/** The value of one sample of a Prometheus text exposition, 0 when absent. */
function sample(metrics: string, line: string): number {
  const found = metrics.split('\n').find((candidate) => candidate.startsWith(`${line} `));
  return found ? Number(found.slice(line.length + 1)) : 0;
}

describe('a burst of wrong secrets on one key’s prefix', () => {
  let system: System;
  before(async () => {
    system = await startSystem();
  });
  after(() => system.stop());

  it('locks nobody out, leaves other keys answered and runs no argon2 at all', async () => {
    const target = await system.createKey({ name: 'target', env: 'live', scopes: ['article:r'] });
    const other = await system.createKey({ name: 'other', env: 'live', scopes: ['article:r'] });
    assert.equal((await system.call(other.secret, '/v2/channels')).status, 200);
    const [attack, others] = await Promise.all([
      burst(200, 8, () => system.call(wrongTokenFor(target.prefix), '/v2/channels')),
      burst(40, 2, () => system.call(other.secret, '/v2/channels')),
    ]);
    assert.deepEqual(tally(attack), { 401: 200 });
    assert.deepEqual(tally(others), { 200: 40 }, 'the other key is answered throughout');
    const right = await system.call(target.secret, '/v2/channels');
    assert.equal(right.status, 200, 'the right secret, first used after the burst, is not locked out');
    for (let i = 0; i < 5; i++) assert.equal((await system.call(target.secret, '/v2/channels')).status, 200);
    const metrics = await (await fetch(`${system.gateway.url}/metrics`)).text();
    assert.equal(sample(metrics, 'keygate_argon2_verifications_total{result="match"}'), 0);
    assert.equal(sample(metrics, 'keygate_argon2_verifications_total{result="mismatch"}'), 0);
    assert.equal(sample(metrics, 'keygate_tag_verifications_total'), 2, 'each right secret by its tag, once');
    assert.equal(sample(metrics, 'keygate_argon2_verifications_refused_total{reason="tag_mismatch"}'), 200);
  });
});
