import { AnalyticsQuerySchema } from '@keygate/contracts/gateway';
import type { OperationSpec } from '../operation.ts';
import { AnalyticsSeriesSchema } from '../schemas/analytics.ts';
import { managementErrors } from './errors.ts';

const RANGE =
  ' `granularity` is `minute`, `hour` (default) or `day`; [from, to) is widened to whole buckets (default: the last 60 minutes, 24 hours or 30 days), at most 2,880 buckets. Minutes are kept 48 hours, hours 90 days, days 400 days (by default).';

/** `GET /v2/auth/keys/{id}/analytics`. */
export const KEY_ANALYTICS_OPERATION: OperationSpec = {
  method: 'GET',
  path: '/v2/auth/keys/{id}/analytics',
  operationId: 'getKeyAnalytics',
  tag: 'Keys',
  kind: 'management',
  summary: 'Get the calls of an API key over time, by outcome',
  description: `Every call of the key, counted per bucket and outcome by every gateway instance.${RANGE}`,
  query: AnalyticsQuerySchema,
  success: { status: 200, description: 'The series.', schema: AnalyticsSeriesSchema },
  errors: managementErrors(['VALIDATION_FAILED', 'KEY_NOT_FOUND']),
};

/** `GET /v2/auth/identities/{id}/analytics`: every key of the identity, summed. */
export const IDENTITY_ANALYTICS_OPERATION: OperationSpec = {
  method: 'GET',
  path: '/v2/auth/identities/{id}/analytics',
  operationId: 'getIdentityAnalytics',
  tag: 'Identities',
  kind: 'management',
  summary: 'Get the calls of an identity over time, by outcome',
  description: `Every call of the identity’s keys, counted per bucket and outcome.${RANGE}`,
  query: AnalyticsQuerySchema,
  success: { status: 200, description: 'The series.', schema: AnalyticsSeriesSchema },
  errors: managementErrors(['VALIDATION_FAILED', 'IDENTITY_NOT_FOUND']),
};
