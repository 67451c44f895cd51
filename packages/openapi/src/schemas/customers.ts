import { CUSTOMER_TIERS } from '@keygate/contracts/commerce';
import { z } from 'zod';
import { responseComponent } from '../registries.ts';
import { ChannelSchema, UnitPriceSchema } from './catalog.ts';
import { CurrencySchema, money, NextCursorSchema, timestamp } from './common.ts';

/** The tiers a customer can be in. */
export const CustomerTierSchema = responseComponent('CustomerTier', z.enum(CUSTOMER_TIERS));

/** A customer (`cus_…`) and its tier. */
export const CustomerSchema = responseComponent(
  'Customer',
  z.object({
    id: z.string(),
    name: z.string(),
    tier: CustomerTierSchema,
    createdAt: timestamp(),
    updatedAt: timestamp(),
  }),
);

/** A price agreed with one customer for one product in one channel. */
export const AgreementSchema = responseComponent(
  'Agreement',
  z.object({
    priceId: z.string(),
    sku: z.string(),
    channel: z.string(),
    currency: CurrencySchema,
    amount: money('Gross in VAT-inclusive channels, else net (minor units).'),
    minQuantity: z.number().int().min(1),
    validFrom: timestamp().nullable(),
    validTo: timestamp().nullable(),
    isCurrent: z.boolean().meta({ description: 'True when the validity window contains now.' }),
  }),
);

/** What a customer pays, one page of products: the customer, their agreements and effective prices per channel. */
export const CustomerPricingSchema = responseComponent(
  'CustomerPricing',
  z.object({
    customer: CustomerSchema,
    agreements: z.array(AgreementSchema),
    effectivePrices: z.array(
      z.object({
        channel: ChannelSchema.shape.code,
        currency: CurrencySchema,
        pricesIncludeVat: z.boolean(),
        prices: z.array(UnitPriceSchema.extend({ sku: z.string(), name: z.string() })).meta({
          description:
            'The page’s products with agreement or tier prices for this customer, priced at quantity 1.',
        }),
      }),
    ),
    nextCursor: NextCursorSchema,
  }),
);
