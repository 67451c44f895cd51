import { z } from 'zod';
import { CUSTOMER_TIERS } from './pricing-types.ts';

const NameSchema = z
  .string({ error: 'name must be a string of 1..200 characters' })
  .trim()
  .min(1, 'name must be a string of 1..200 characters')
  .max(200, 'name must be a string of 1..200 characters');

const TierSchema = z.enum(CUSTOMER_TIERS, { error: `tier must be one of ${CUSTOMER_TIERS.join(', ')}` });

/** Body of POST /v2/customers. */
export const CreateCustomerSchema = z.strictObject(
  { name: NameSchema, tier: TierSchema.default('retail') },
  { error: 'the body must be a JSON object {name, tier?}' },
);

/** Body of PATCH /v2/customers/{id}: at least one of name, tier. */
export const UpdateCustomerSchema = z
  .strictObject(
    { name: NameSchema.optional(), tier: TierSchema.optional() },
    { error: 'the body must be a JSON object {name?, tier?}' },
  )
  .refine((body) => body.name !== undefined || body.tier !== undefined, 'send name, tier or both');

/** Query of GET /v2/customers/{id}/pricing: pages of products by SKU, like the catalogue. */
export const CustomerPricingQuerySchema = z.object({
  limit: z.coerce
    .number({ error: 'must be an integer 1..100' })
    .int('must be an integer 1..100')
    .min(1, 'must be an integer 1..100')
    .max(100, 'must be an integer 1..100')
    .default(50),
  cursor: z.string().min(1).max(512).optional(),
});
