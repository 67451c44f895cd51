import { z } from 'zod';

/** `X-Channel`: the channel whose catalogue, prices and currency the caller wants. */
export const ChannelHeaderSchema = z.object({
  'x-channel': z.string({ error: 'the X-Channel header is required' }).min(1).max(64),
});

/** Query of GET /v2/catalog/products. */
export const ListProductsQuerySchema = z.object({
  customer: z.string().min(1).max(64).optional(),
  inStock: z
    .enum(['true', 'false'], { error: "must be 'true' or 'false'" })
    .transform((v) => v === 'true')
    .optional(),
  limit: z.coerce
    .number({ error: 'must be an integer 1..100' })
    .int('must be an integer 1..100')
    .min(1, 'must be an integer 1..100')
    .max(100, 'must be an integer 1..100')
    .default(50),
  cursor: z.string().min(1).max(512).optional(),
  q: z
    .string({ error: 'must be text of 1..100 characters' })
    .trim()
    .min(1, 'must be text of 1..100 characters')
    .max(100, 'must be text of 1..100 characters')
    .optional(),
});

/** Query of GET /v2/catalog/products/{sku}. */
export const GetProductQuerySchema = z.object({ customer: z.string().min(1).max(64).optional() });
