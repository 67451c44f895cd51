export {
  decodeWebhookSecret,
  generateWebhookSecret,
  InvalidWebhookSecretError,
  WEBHOOK_SECRET_BYTES,
  WEBHOOK_SECRET_PREFIX,
} from './secret.ts';
export {
  computeSignature,
  createWebhookHeaders,
  signWebhook,
  WEBHOOK_ID_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TIMESTAMP_HEADER,
  type WebhookMessage,
} from './sign.ts';
export {
  DEFAULT_TOLERANCE_SECONDS,
  type VerifiedWebhook,
  type VerifyWebhookOptions,
  verifyWebhook,
  type WebhookHeaders,
  type WebhookVerificationCode,
  WebhookVerificationError,
} from './verify.ts';
