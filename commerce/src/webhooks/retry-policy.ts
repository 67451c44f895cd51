// The retry decision moved to @keygate/webhooks, shared with the gateway's alerts; the defaults stay contracts.
import {
  DEFAULT_DISABLE_AFTER_MS,
  DEFAULT_JITTER_RATIO,
  DEFAULT_MAX_RETRY_AFTER_MS,
  DEFAULT_RETRY_SCHEDULE_SECONDS,
} from '@keygate/contracts/commerce';

export {
  type AttemptResult,
  applyJitter,
  type DeliveryOutcome,
  decideOutcome,
  isSuccess,
  parseRetryAfter,
  type RetryPolicy,
} from '@keygate/webhooks';
export {
  DEFAULT_DISABLE_AFTER_MS,
  DEFAULT_JITTER_RATIO,
  DEFAULT_MAX_RETRY_AFTER_MS,
  DEFAULT_RETRY_SCHEDULE_SECONDS,
};
