import assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { newRequestId } from '../../../src/keys/token.ts';

describe('newRequestId', () => {
  it('has the shape of every other id: req_ and 20 base62 characters', () => {
    assert.match(newRequestId(), /^req_[0-9A-Za-z]{20}$/);
  });

  it('sorts by arrival time, to the millisecond, across digit carries', () => {
    const times = [0, 61, 62, 3_843, 3_844, 1_763_700_000_000, 1_763_700_000_001, 1_763_700_060_000];
    const ids = times.map((ms) => newRequestId(ms));
    assert.deepEqual([...ids].sort(), ids);
    assert.equal(new Set(ids.map((id) => id.slice(0, 12))).size, times.length);
  });

  it('stays unique within one millisecond (12 random characters)', () => {
    const ids = Array.from({ length: 10_000 }, () => newRequestId(1_763_700_000_000));
    assert.equal(new Set(ids).size, ids.length);
    assert.ok(ids.every((id) => id.startsWith(ids[0]!.slice(0, 12))));
  });
});
