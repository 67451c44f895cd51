import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

/*
 * A kept answer of the key-management API can hold a new token (create, rotate), and the store
 * never holds a token readable. So the answer body is sealed (AES-256-GCM) under a key derived
 * from the idempotency key itself, which only the caller knows: the store keeps a hash of the
 * idempotency key and the ciphertext, and only a retry that sends the key again can open it.
 */

const INFO = Buffer.from('keygate idempotent answer v1');

/** The name a record is stored under: the idempotency key never reaches the store. */
export function hashIdempotencyKey(idempotencyKey: string): string {
  return createHash('sha256').update(idempotencyKey).digest('base64url');
}

function keyOf(idempotencyKey: string, keyId: string): Buffer {
  return Buffer.from(hkdfSync('sha256', idempotencyKey, keyId, INFO, 32));
}

/** The body sealed for (API key id, idempotency key): base64 of IV, tag and ciphertext. */
export function sealAnswerBody(body: string, idempotencyKey: string, keyId: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(idempotencyKey, keyId), iv);
  const sealed = Buffer.concat([cipher.update(body, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64');
}

/** The body back; throws when it was not sealed for this pair. */
export function openAnswerBody(sealed: string, idempotencyKey: string, keyId: string): string {
  const bytes = Buffer.from(sealed, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', keyOf(idempotencyKey, keyId), bytes.subarray(0, 12));
  decipher.setAuthTag(bytes.subarray(12, 28));
  return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
}
