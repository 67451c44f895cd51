import assert from 'node:assert/strict';
import { createLruCache } from '../../../src/auth/lru-cache.ts';

describe('createLruCache', () => {
  it('evicts the least recently used entry beyond its bound', () => {
    const cache = createLruCache<number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    assert.equal(cache.get('a'), 1);
    cache.set('c', 3);
    assert.equal(cache.get('b'), undefined);
    assert.equal(cache.get('a'), 1);
    assert.equal(cache.size, 2);
  });

  it('keeps an entry read at least once per half its bound, however many others come and go', () => {
    const cache = createLruCache<number>(100);
    cache.set('hot', 1);
    cache.set('cold', 2);
    for (let i = 0; i < 10_000; i++) {
      cache.set(`other-${i}`, i);
      if (i % 50 === 49) assert.equal(cache.get('hot'), 1, `hot evicted after ${i + 1} others`);
    }
    assert.equal(cache.get('cold'), undefined);
    assert.equal(cache.size, 100);
  });

  it('forgets entries at their expiry', () => {
    const cache = createLruCache<boolean>(10);
    cache.set('x', true, 1_000);
    assert.equal(cache.get('x', 999), true);
    assert.equal(cache.get('x', 1_000), undefined);
    assert.equal(cache.size, 0);
  });
});
