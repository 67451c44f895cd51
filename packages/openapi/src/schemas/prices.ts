import { z } from 'zod';
import { responseComponent } from '../registries.ts';
import { PriceLevelSchema, TaxClassSchema } from './catalog.ts';
import { CurrencySchema, money, timestamp } from './common.ts';
import { CustomerTierSchema } from './customers.ts';

/** A price row (`prc_…`): product, channel, level, its tier or customer, validity and amount. */
export const PriceSchema = responseComponent(
  'Price',
  z.object({
    id: z.string(),
    sku: z.string(),
    productId: z.string(),
    channel: z.string(),
    currency: CurrencySchema,
    level: PriceLevelSchema,
    tier: CustomerTierSchema.nullable().meta({ description: 'The tier of a `tier` price, else null.' }),
    customerId: z
      .string()
      .nullable()
      .meta({ description: 'The customer of an `agreement` price, else null.' }),
    minQuantity: z.number().int().min(1),
    validFrom: timestamp('Applies from this instant (inclusive); null: no lower bound.').nullable(),
    validTo: timestamp('Applies until this instant (exclusive); null: no upper bound.').nullable(),
    amount: money('Gross in channels whose prices include VAT, else net (minor units).'),
  }),
);

/** The VAT rate of one country and tax class, in basis points. */
export const VatRateSchema = responseComponent(
  'VatRate',
  z.object({
    country: z.string().regex(/^[A-Z]{2}$/),
    taxClass: TaxClassSchema,
    rateBp: z.number().int().min(0).max(10_000).meta({ description: 'Basis points: 1900 = 19 %.' }),
  }),
);
