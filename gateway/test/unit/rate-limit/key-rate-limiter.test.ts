import assert from 'node:assert/strict';
import { createMemoryRateLimiter } from '../../../src/rate-limit/key-rate-limiter.ts';

describe('createMemoryRateLimiter', () => {
  it('counts down the remaining calls and refuses beyond the quota with a reset of at least 1 s', async () => {
    const limiter = createMemoryRateLimiter();
    const first = await limiter.consume('key_a', 2);
    assert.deepEqual([first.allowed, first.limit, first.remaining], [true, 2, 1]);
    assert.ok(first.resetSeconds > 0 && first.resetSeconds <= 60);
    assert.equal((await limiter.consume('key_a', 2)).remaining, 0);
    const refused = await limiter.consume('key_a', 2);
    assert.equal(refused.allowed, false);
    assert.equal(refused.remaining, 0);
    assert.ok(Number.isInteger(refused.resetSeconds) && refused.resetSeconds >= 1);
  });

  it('keeps separate budgets per key id', async () => {
    const limiter = createMemoryRateLimiter();
    assert.equal((await limiter.consume('key_a', 1)).allowed, true);
    assert.equal((await limiter.consume('key_a', 1)).allowed, false);
    assert.equal((await limiter.consume('key_b', 1)).allowed, true);
  });
});
