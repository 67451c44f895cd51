import assert from 'node:assert/strict';
import { generateKeyPairSync, sign, verify } from 'node:crypto';
import { joseSignatureOfDer, jwsSignerOf } from '../../../src/identity/jws-signature.ts';

const P1363 = 'ieee-p1363' as const;

/** The lengths of r and s inside a DER ECDSA signature (one-byte lengths, as P-256's always are). */
function integerLengths(der: Buffer): [number, number] {
  const r = der[3]!;
  return [r, der[4 + r + 1]!];
}

describe('jws-signature', () => {
  const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const ed = generateKeyPairSync('ed25519');

  describe('joseSignatureOfDer', () => {
    it('turns DER signatures of every shape into r ‖ s that verify as IEEE P1363 (64 bytes)', () => {
      // r or s is 33 bytes in DER when its top bit is set (a zero sign byte) and 31 or fewer when its
      // top byte is zero: sign until both shapes were seen, and check every conversion on the way.
      const seen = { padded: 0, short: 0 };
      for (let i = 0; i < 20_000 && (seen.padded < 10 || seen.short < 3); i++) {
        const input = Buffer.from(`input ${i}`);
        const der = sign('sha256', input, ec.privateKey);
        for (const length of integerLengths(der)) {
          if (length > 32) seen.padded++;
          if (length < 32) seen.short++;
        }
        const raw = joseSignatureOfDer(der);
        assert.equal(raw.length, 64);
        assert.ok(verify('sha256', input, { key: ec.publicKey, dsaEncoding: P1363 }, raw), `signature ${i}`);
      }
      assert.ok(seen.padded >= 10 && seen.short >= 3, `shapes seen: ${JSON.stringify(seen)}`);
    });

    it('refuses what is not a DER signature of two integers that fit', () => {
      assert.throws(
        () => joseSignatureOfDer(Buffer.from([0x31, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01])),
        /not a DER sequence/,
      );
      assert.throws(
        () => joseSignatureOfDer(Buffer.from([0x30, 0x06, 0x04, 0x01, 0x01, 0x02, 0x01, 0x01])),
        /integer missing/,
      );
      const tooLong = Buffer.concat([
        Buffer.from([0x30, 0x26, 0x02, 0x21, 0x01]),
        Buffer.alloc(32, 1),
        Buffer.from([0x02, 0x01, 0x01]),
      ]);
      assert.throws(() => joseSignatureOfDer(tooLong), /too long/);
    });
  });

  describe('jwsSignerOf', () => {
    it('signs ES256 with a P-256 key: base64url r ‖ s over SHA-256 of the input', () => {
      const signature = Buffer.from(jwsSignerOf(ec.privateKey)('header.payload'), 'base64url');
      assert.equal(signature.length, 64);
      assert.ok(
        verify('sha256', Buffer.from('header.payload'), { key: ec.publicKey, dsaEncoding: P1363 }, signature),
      );
      assert.ok(
        !verify(
          'sha256',
          Buffer.from('header.payloaD'),
          { key: ec.publicKey, dsaEncoding: P1363 },
          signature,
        ),
      );
    });

    it('signs EdDSA with an Ed25519 key', () => {
      const signature = Buffer.from(jwsSignerOf(ed.privateKey)('header.payload'), 'base64url');
      assert.equal(signature.length, 64);
      assert.ok(verify(null, Buffer.from('header.payload'), ed.publicKey, signature));
    });

    it('refuses any other key', () => {
      const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 });
      assert.throws(() => jwsSignerOf(rsa.privateKey), /P-256 or Ed25519, not rsa/);
      const p384 = generateKeyPairSync('ec', { namedCurve: 'P-384' });
      assert.throws(() => jwsSignerOf(p384.privateKey), /P-256 or Ed25519, not ec secp384r1/);
    });
  });
});
