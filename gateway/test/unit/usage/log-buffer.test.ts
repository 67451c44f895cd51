import assert from 'node:assert/strict';
import { createLogBuffer } from '../../../src/usage/log-buffer.ts';

describe('createLogBuffer', () => {
  function buffer(capacity: number) {
    let dropped = 0;
    const logs = createLogBuffer<number>(capacity, (count) => {
      dropped += count;
    });
    return { logs, dropped: () => dropped };
  }

  it('drains everything, oldest first, and is empty afterwards', () => {
    const { logs, dropped } = buffer(5);
    for (const n of [1, 2, 3]) logs.push(n);
    assert.equal(logs.size, 3);
    assert.deepEqual(logs.drain(), [1, 2, 3]);
    assert.equal(logs.size, 0);
    assert.deepEqual(logs.drain(), []);
    assert.equal(dropped(), 0);
  });

  it('keeps the newest items beyond its capacity and counts each one dropped, over many wraps', () => {
    const { logs, dropped } = buffer(3);
    for (let n = 1; n <= 1_000; n++) logs.push(n);
    assert.equal(logs.size, 3);
    assert.equal(dropped(), 997);
    assert.deepEqual(logs.drain(), [998, 999, 1_000]);
    logs.push(1_001);
    assert.deepEqual(logs.drain(), [1_001]);
  });

  it('puts items back ahead of newer ones, dropping the oldest beyond its capacity', () => {
    const { logs, dropped } = buffer(4);
    for (const n of [1, 2, 3]) logs.push(n);
    const taken = logs.drain();
    for (const n of [4, 5]) logs.push(n);
    logs.restore(taken);
    assert.equal(dropped(), 1);
    assert.deepEqual(logs.drain(), [2, 3, 4, 5]);
  });
});
