import assert from 'node:assert/strict';
import { sameText } from '../../../src/data-plane/key-check.ts';

describe('sameText (a connection’s bearer header against its last one)', () => {
  it('is true for equal strings only', () => {
    assert.equal(sameText('Bearer kg_live_abc', 'Bearer kg_live_abc'), true);
    assert.equal(sameText('', ''), true);
    assert.equal(sameText('Bearer kg_live_abc', 'Bearer kg_live_abd'), false, 'last character');
    assert.equal(sameText('Bearer kg_live_abc', 'bearer kg_live_abc'), false, 'first character');
    assert.equal(sameText('Bearer kg_live_abc', 'Bearer kg_live_ab'), false, 'a prefix');
    assert.equal(sameText('Bearer kg_live_ab', 'Bearer kg_live_abc'), false, 'longer');
    assert.equal(sameText('ü', 'ý'), false, 'beyond Latin-1 bit patterns');
  });
});
