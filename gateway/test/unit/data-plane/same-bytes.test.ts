import assert from 'node:assert/strict';
import { sameBytes } from '../../../src/data-plane/key-check.ts';

describe('sameBytes (the UTF-8 of a connection’s bearer header against its last one)', () => {
  it('is true for equal strings only', () => {
    assert.equal(sameBytes(Buffer.from('Bearer kg_live_abc'), Buffer.from('Bearer kg_live_abc')), true);
    assert.equal(sameBytes(Buffer.from(''), Buffer.from('')), true);
    assert.equal(
      sameBytes(Buffer.from('Bearer kg_live_abc'), Buffer.from('Bearer kg_live_abd')),
      false,
      'last character',
    );
    assert.equal(
      sameBytes(Buffer.from('Bearer kg_live_abc'), Buffer.from('bearer kg_live_abc')),
      false,
      'first character',
    );
    assert.equal(
      sameBytes(Buffer.from('Bearer kg_live_abc'), Buffer.from('Bearer kg_live_ab')),
      false,
      'a prefix',
    );
    assert.equal(
      sameBytes(Buffer.from('Bearer kg_live_ab'), Buffer.from('Bearer kg_live_abc')),
      false,
      'longer',
    );
    assert.equal(sameBytes(Buffer.from('ü'), Buffer.from('ý')), false, 'beyond Latin-1 bit patterns');
    assert.equal(
      sameBytes(Buffer.from('\u0100'), Buffer.from('\u0000', 'latin1')),
      false,
      'not by its low byte',
    );
  });
});
