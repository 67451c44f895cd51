import { createHmac } from 'node:crypto';
import { decodeWebhookSecret } from './secret.ts';

/** Header names of Standard Webhooks 1.0 (lower case, as node:http presents them). */
export const WEBHOOK_ID_HEADER = 'webhook-id';
export const WEBHOOK_TIMESTAMP_HEADER = 'webhook-timestamp';
export const WEBHOOK_SIGNATURE_HEADER = 'webhook-signature';

/** What a signature covers: the message id, the attempt's Unix timestamp (seconds) and the raw body. */
export interface WebhookMessage {
  id: string;
  /** Unix seconds of this delivery attempt. */
  timestamp: number;
  /** The exact bytes sent as the request body. */
  body: string | Uint8Array;
}

/** The base64 HMAC-SHA256 of `${id}.${timestamp}.${body}` under one secret's key. */
export function computeSignature(secret: string, message: WebhookMessage): string {
  const hmac = createHmac('sha256', decodeWebhookSecret(secret));
  hmac.update(`${message.id}.${message.timestamp}.`);
  hmac.update(message.body);
  return hmac.digest('base64');
}

/**
 * The `webhook-signature` header value: `v1,<base64>` per secret, separated by spaces (several
 * secrets while one rotates; a receiver accepts any one that matches).
 */
export function signWebhook(secretOrSecrets: string | readonly string[], message: WebhookMessage): string {
  const secrets = typeof secretOrSecrets === 'string' ? [secretOrSecrets] : secretOrSecrets;
  if (secrets.length === 0) throw new RangeError('signWebhook needs at least one secret');
  return secrets.map((secret) => `v1,${computeSignature(secret, message)}`).join(' ');
}

/** The three Standard Webhooks headers for one delivery attempt. */
export function createWebhookHeaders(
  secretOrSecrets: string | readonly string[],
  message: WebhookMessage,
): Record<string, string> {
  return {
    [WEBHOOK_ID_HEADER]: message.id,
    [WEBHOOK_TIMESTAMP_HEADER]: String(message.timestamp),
    [WEBHOOK_SIGNATURE_HEADER]: signWebhook(secretOrSecrets, message),
  };
}
