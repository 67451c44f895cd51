import assert from 'node:assert/strict';
import { sameText } from '../../../src/data-plane/key-check.ts';

describe('sameText (a connection’s bearer header against the UTF-8 of its last one)', () => {
  it('is true for equal strings only', () => {
    assert.equal(sameText('Bearer kg_live_abc', Buffer.from('Bearer kg_live_abc')), true);
    assert.equal(sameText('', Buffer.from('')), true);
    assert.equal(sameText('Bearer kg_live_abc', Buffer.from('Bearer kg_live_abd')), false, 'last character');
    assert.equal(sameText('Bearer kg_live_abc', Buffer.from('bearer kg_live_abc')), false, 'first character');
    assert.equal(sameText('Bearer kg_live_abc', Buffer.from('Bearer kg_live_ab')), false, 'a prefix');
    assert.equal(sameText('Bearer kg_live_ab', Buffer.from('Bearer kg_live_abc')), false, 'longer');
    assert.equal(sameText('ü', Buffer.from('ý')), false, 'beyond Latin-1 bit patterns');
    assert.equal(sameText('\u0100', Buffer.from('\u0000', 'latin1')), false, 'not by its low byte');
  });
});
