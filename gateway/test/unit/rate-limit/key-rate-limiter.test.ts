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

  it('decides synchronously with consumeNow, on the same budget as consume', async () => {
    const limiter = createMemoryRateLimiter();
    const now = limiter.consumeNow!('key_a', 2);
    assert.deepEqual([now.allowed, now.remaining], [true, 1]);
    assert.equal((await limiter.consume('key_a', 2)).remaining, 0);
    assert.equal(limiter.consumeNow!('key_a', 2).allowed, false);
  });

  it('starts a window with its first call and starts counting over once it ended', () => {
    let now = 1_000_000;
    const limiter = createMemoryRateLimiter(() => now);
    assert.equal(limiter.consumeNow!('key_a', 1).resetSeconds, 60);
    now += 45_500;
    const refused = limiter.consumeNow!('key_a', 1);
    assert.deepEqual([refused.allowed, refused.resetSeconds], [false, 15]);
    now += 14_499;
    assert.equal(limiter.consumeNow!('key_a', 1).allowed, false, 'one millisecond before the end');
    now += 1;
    const fresh = limiter.consumeNow!('key_a', 1);
    assert.deepEqual([fresh.allowed, fresh.remaining, fresh.resetSeconds], [true, 0, 60]);
  });

  it('keeps a budget per quota: a key whose limit changed starts a fresh count', () => {
    const limiter = createMemoryRateLimiter();
    assert.equal(limiter.consumeNow!('key_a', 1).allowed, true);
    assert.equal(limiter.consumeNow!('key_a', 1).allowed, false);
    assert.equal(limiter.consumeNow!('key_a', 5).remaining, 4);
  });
});
