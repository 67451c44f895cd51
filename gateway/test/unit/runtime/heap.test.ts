import assert from 'node:assert/strict';
import { getHeapStatistics } from 'node:v8';
import { releaseStartupGarbage } from '../../../src/runtime/heap.ts';

describe('releaseStartupGarbage', () => {
  it('gives back the heap that short-lived start-up objects grew, keeping what is still used', () => {
    const kept = Array.from({ length: 1000 }, (_, i) => ({ i }));
    // Garbage the size of loading the modules: many mid-sized objects, dropped at once.
    let garbage: string[][] | null = Array.from({ length: 200 }, (_, i) =>
      Array.from({ length: 1000 }, (_, j) => `${i}:${j}:${'x'.repeat(64)}`),
    );
    const grown = getHeapStatistics().total_heap_size;
    assert.equal(garbage.length, 200);
    garbage = null;
    releaseStartupGarbage();
    const after = getHeapStatistics().total_heap_size;
    assert.ok(after < grown * 0.8, `heap ${grown} bytes before, ${after} after`);
    assert.equal(kept[999]!.i, 999);
  });

  it('leaves no gc function in the global scope', () => {
    releaseStartupGarbage();
    assert.equal((globalThis as { gc?: unknown }).gc, undefined);
  });
});
