import assert from 'node:assert/strict';
import { sameBytes } from '../../../src/data-plane/key-check.ts';

const utf8 = (text: string) => Buffer.from(text);

describe('sameBytes (the UTF-8 of a connection’s bearer header against its last one)', () => {
  it('is true for equal strings only', () => {
    assert.equal(sameBytes(utf8('Bearer kg_live_abc'), utf8('Bearer kg_live_abc')), true);
    assert.equal(sameBytes(utf8(''), utf8('')), true);
    const different: Array<[Buffer, Buffer, string]> = [
      [utf8('Bearer kg_live_abc'), utf8('Bearer kg_live_abd'), 'last character'],
      [utf8('Bearer kg_live_abc'), utf8('bearer kg_live_abc'), 'first character'],
      [utf8('Bearer kg_live_abc'), utf8('Bearer kg_live_ab'), 'a prefix'],
      [utf8('Bearer kg_live_ab'), utf8('Bearer kg_live_abc'), 'longer'],
      [utf8('ü'), utf8('ý'), 'beyond Latin-1 bit patterns'],
      [utf8('\u0100'), Buffer.from('\u0000', 'latin1'), 'not by its low byte'],
    ];
    for (const [a, b, what] of different) assert.equal(sameBytes(a, b), false, what);
  });
});
