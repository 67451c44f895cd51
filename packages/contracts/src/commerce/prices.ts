import { z } from 'zod';
import { CUSTOMER_TIERS, PRICE_LEVELS } from './pricing-types.ts';

/** The largest unit amount (GraphQL Int is 32-bit). */
export const MAX_PRICE_AMOUNT = 2_147_483_647;

export const MAX_MIN_QUANTITY = 1_000_000;

export const TAX_CLASSES = ['standard', 'reduced', 'zero'] as const;

/** An ISO 8601 instant with an offset, stored canonically (UTC with milliseconds), or null. */
const InstantSchema = z.iso
  .datetime({ offset: true, error: 'must be an ISO 8601 date-time such as 2025-01-01T00:00:00Z' })
  .transform((value) => new Date(value).toISOString())
  .nullable()
  .default(null);

/** What PUT /v2/prices/{id} replaces (omitted fields take their defaults). */
const TermsShape = {
  amount: z
    .number({ error: `amount must be an integer 0..${MAX_PRICE_AMOUNT} (minor units)` })
    .int(`amount must be an integer 0..${MAX_PRICE_AMOUNT} (minor units)`)
    .min(0, `amount must be an integer 0..${MAX_PRICE_AMOUNT} (minor units)`)
    .max(MAX_PRICE_AMOUNT, `amount must be an integer 0..${MAX_PRICE_AMOUNT} (minor units)`),
  minQuantity: z
    .number({ error: `minQuantity must be an integer 1..${MAX_MIN_QUANTITY}` })
    .int(`minQuantity must be an integer 1..${MAX_MIN_QUANTITY}`)
    .min(1, `minQuantity must be an integer 1..${MAX_MIN_QUANTITY}`)
    .max(MAX_MIN_QUANTITY, `minQuantity must be an integer 1..${MAX_MIN_QUANTITY}`)
    .default(1),
  validFrom: InstantSchema,
  validTo: InstantSchema,
};

function checkWindow(
  value: { validFrom: string | null; validTo: string | null },
  ctx: z.RefinementCtx,
): void {
  if (value.validFrom !== null && value.validTo !== null && value.validFrom >= value.validTo) {
    ctx.addIssue({ code: 'custom', path: ['validTo'], message: 'validTo must be after validFrom' });
  }
}

/** Body of PUT /v2/prices/{id}. */
export const ReplacePriceSchema = z
  .strictObject(TermsShape, {
    error: 'the body must be a JSON object {amount, minQuantity?, validFrom?, validTo?}',
  })
  .superRefine(checkWindow);

/** Body of POST /v2/prices: a base, tier (needs `tier`) or agreement (needs `customerId`) price. */
export const CreatePriceSchema = z
  .strictObject(
    {
      sku: z.string({ error: 'sku is required' }).min(1).max(64),
      channel: z.string({ error: 'channel is required (e.g. WEB_DE)' }).min(1).max(64),
      level: z.enum(PRICE_LEVELS, { error: `level must be one of ${PRICE_LEVELS.join(', ')}` }),
      tier: z
        .enum(CUSTOMER_TIERS, { error: `tier must be one of ${CUSTOMER_TIERS.join(', ')}` })
        .nullable()
        .default(null),
      customerId: z.string().min(1).max(64).nullable().default(null),
      ...TermsShape,
    },
    { error: 'the body must be a JSON object' },
  )
  .superRefine((value, ctx) => {
    if ((value.level === 'tier') !== (value.tier !== null)) {
      ctx.addIssue({
        code: 'custom',
        path: ['tier'],
        message: 'tier is required for a tier price and only there',
      });
    }
    if ((value.level === 'agreement') !== (value.customerId !== null)) {
      ctx.addIssue({
        code: 'custom',
        path: ['customerId'],
        message: 'customerId is required for an agreement price and only there',
      });
    }
    checkWindow(value, ctx);
  });

/** Path of PUT /v2/vat-rates/{country}/{taxClass}. */
export const VatRateParamsSchema = z.object({
  country: z.string().regex(/^[A-Z]{2}$/, 'country must be an ISO 3166-1 alpha-2 code such as DE'),
  taxClass: z.enum(TAX_CLASSES, { error: `taxClass must be one of ${TAX_CLASSES.join(', ')}` }),
});

/** Body of PUT /v2/vat-rates/{country}/{taxClass}. */
export const VatRateSchema = z.strictObject(
  {
    rateBp: z
      .number({ error: 'rateBp must be an integer 0..10000 (basis points, 1900 = 19 %)' })
      .int('rateBp must be an integer 0..10000 (basis points, 1900 = 19 %)')
      .min(0, 'rateBp must be an integer 0..10000 (basis points, 1900 = 19 %)')
      .max(10_000, 'rateBp must be an integer 0..10000 (basis points, 1900 = 19 %)'),
  },
  { error: 'the body must be a JSON object {rateBp}' },
);
