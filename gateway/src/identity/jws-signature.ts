import { type KeyObject, sign } from 'node:crypto';

/** Bytes of each of r and s in an ES256 signature (RFC 7518 §3.4). */
const P256_SCALAR_BYTES = 32;

/**
 * An ECDSA signature in DER (SEQUENCE { INTEGER r, INTEGER s }, what node:crypto returns fastest) as
 * JOSE's fixed-width r ‖ s: each integer without its sign byte, left-padded with zeros to `size`.
 * node:crypto's own `dsaEncoding: 'ieee-p1363'` signs markedly slower than DER plus this conversion.
 */
export function joseSignatureOfDer(der: Buffer, size = P256_SCALAR_BYTES): Buffer {
  const out = Buffer.alloc(size * 2);
  if (der[0] !== 0x30) throw new Error('ECDSA signature is not a DER sequence');
  // A P-256 signature is at most 72 bytes, so its length is one byte; the long form is read anyway.
  let offset = der[1]! & 0x80 ? 2 + (der[1]! & 0x7f) : 2;
  for (let half = 0; half < 2; half++) {
    if (der[offset] !== 0x02) throw new Error('ECDSA signature integer missing');
    const length = der[offset + 1]!;
    let start = offset + 2;
    let bytes = length;
    while (bytes > size && der[start] === 0) {
      start++;
      bytes--;
    }
    if (bytes > size || start + bytes > der.length) throw new Error('ECDSA signature integer too long');
    der.copy(out, half * size + size - bytes, start, start + bytes);
    offset += 2 + length;
  }
  return out;
}

/**
 * The JWS signer of an identity key: a signing input to its base64url signature, ES256 for a P-256
 * key and EdDSA for an Ed25519 key. The gateway's event loop and its signing worker both sign with it.
 */
export function jwsSignerOf(key: KeyObject): (input: string) => string {
  const type = key.asymmetricKeyType;
  if (type === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1') {
    return (input) => joseSignatureOfDer(sign('sha256', Buffer.from(input), key)).toString('base64url');
  }
  if (type === 'ed25519') return (input) => sign(null, Buffer.from(input), key).toString('base64url');
  const what = type === 'ec' ? `ec ${key.asymmetricKeyDetails?.namedCurve}` : type;
  throw new Error(`identity key must be P-256 or Ed25519, not ${what}`);
}
