// The sender moved to @keygate/webhooks, shared with the gateway's alerts.
export {
  MAX_RESPONSE_BYTES,
  type OutgoingWebhook,
  type SendWebhook,
  sendWebhookOverHttp,
} from '@keygate/webhooks';
