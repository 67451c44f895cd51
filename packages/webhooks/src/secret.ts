import { randomBytes } from 'node:crypto';

/** The prefix of every Standard Webhooks signing secret. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/** Bytes of randomness in a generated secret (the spec allows 24 to 64). */
export const WEBHOOK_SECRET_BYTES = 32;

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** Thrown for a secret that is not `whsec_` + base64 (or bare base64) of at least one byte. */
export class InvalidWebhookSecretError extends Error {
  constructor() {
    super('a webhook secret is whsec_ followed by the base64 of its key bytes');
    this.name = 'InvalidWebhookSecretError';
  }
}

/** A new secret: `whsec_` + base64 of 32 random bytes. */
export function generateWebhookSecret(): string {
  return WEBHOOK_SECRET_PREFIX + randomBytes(WEBHOOK_SECRET_BYTES).toString('base64');
}

/** The HMAC key of a secret: the base64-decoded part after `whsec_` (the prefix is optional). */
export function decodeWebhookSecret(secret: string): Buffer {
  const encoded = secret.startsWith(WEBHOOK_SECRET_PREFIX)
    ? secret.slice(WEBHOOK_SECRET_PREFIX.length)
    : secret;
  if (!BASE64.test(encoded)) throw new InvalidWebhookSecretError();
  const key = Buffer.from(encoded, 'base64');
  if (key.length === 0) throw new InvalidWebhookSecretError();
  return key;
}
