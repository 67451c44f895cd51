import { z } from 'zod';

/** The most units on hand a product may have (and the largest single adjustment). */
export const MAX_ON_HAND = 1_000_000_000;

/** Body of PUT /v2/stock/{sku}. */
export const SetStockSchema = z.strictObject(
  {
    onHand: z
      .number({ error: `onHand must be an integer 0..${MAX_ON_HAND}` })
      .int(`onHand must be an integer 0..${MAX_ON_HAND}`)
      .min(0, `onHand must be an integer 0..${MAX_ON_HAND}`)
      .max(MAX_ON_HAND, `onHand must be an integer 0..${MAX_ON_HAND}`),
  },
  { error: 'the body must be a JSON object {onHand}' },
);

/** Body of POST /v2/stock/{sku}:adjust. */
export const AdjustStockSchema = z.strictObject(
  {
    delta: z
      .number({ error: `delta must be a non-zero integer within ±${MAX_ON_HAND}` })
      .int(`delta must be a non-zero integer within ±${MAX_ON_HAND}`)
      .min(-MAX_ON_HAND, `delta must be a non-zero integer within ±${MAX_ON_HAND}`)
      .max(MAX_ON_HAND, `delta must be a non-zero integer within ±${MAX_ON_HAND}`)
      .refine((delta) => delta !== 0, 'delta must be a non-zero integer'),
  },
  { error: 'the body must be a JSON object {delta}' },
);
