import { randomBytes } from 'node:crypto';

/** A prefixed random id with 128 random bits, e.g. `crt_3q2Xk…` (base64url, 22 characters). */
export function createRandomId(prefix: string): string {
  return `${prefix}_${randomBytes(16).toString('base64url')}`;
}
