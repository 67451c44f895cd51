import { ANALYTICS_GRANULARITIES, CALL_OUTCOMES } from '@keygate/contracts/gateway';
import { z } from 'zod';
import { responseComponent } from '../registries.ts';
import { timestamp } from './common.ts';

const OutcomeCountsSchema = z
  .object(Object.fromEntries(CALL_OUTCOMES.map((outcome) => [outcome, z.number().int().min(0).optional()])))
  .meta({
    description:
      'Calls per outcome in the bucket: every outcome (0 when none), or only the one asked with `outcome`. `VALID` admitted; `RATE_LIMITED`, `QUOTA_EXCEEDED`, `CREDITS_EXHAUSTED` refused by a limit; `FORBIDDEN_SCOPE`, `FORBIDDEN_IP` refused by the key’s checks; `EXPIRED`, `REVOKED` (a revoked key or a closed secret), `INVALID_SECRET` (a wrong secret on this key’s prefix) refused before the call was authenticated; `UPSTREAM_ERROR` a 5xx from the upstream.',
  });

/** A key's or an identity's calls over time, by outcome: one point per bucket, empty ones included. */
export const AnalyticsSeriesSchema = responseComponent(
  'AnalyticsSeries',
  z.object({
    granularity: z.enum(ANALYTICS_GRANULARITIES),
    from: timestamp().meta({ description: 'The first bucket’s start.' }),
    to: timestamp().meta({ description: 'The end of the last bucket (exclusive).' }),
    data: z.array(
      z.object({
        start: timestamp().meta({ description: 'The bucket’s start (UTC).' }),
        outcomes: OutcomeCountsSchema,
        cost: z.number().int().min(0).meta({ description: 'The cost the bucket’s calls spent.' }),
      }),
    ),
  }),
);
