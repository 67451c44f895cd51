export {
  MAX_RESPONSE_BYTES,
  type OutgoingWebhook,
  type SendWebhook,
  sendWebhookOverHttp,
} from './http-sender.ts';
export {
  type AttemptResult,
  applyJitter,
  type DeliveryOutcome,
  decideOutcome,
  isSuccess,
  parseRetryAfter,
  type RetryPolicy,
} from './retry-policy.ts';
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
  type AddressCheck,
  checkUrlAddress,
  hostOf,
  isPrivateAddress,
  type LookupHost,
  lookupHostWithDns,
  type ResolvedAddress,
} from './url-policy.ts';
export {
  DEFAULT_TOLERANCE_SECONDS,
  type VerifiedWebhook,
  type VerifyWebhookOptions,
  verifyWebhook,
  type WebhookHeaders,
  type WebhookVerificationCode,
  WebhookVerificationError,
} from './verify.ts';
