/** Pricing vocabulary shared by the catalogue, carts and GraphQL. */

export const PRICE_LEVELS = ['base', 'tier', 'agreement'] as const;
export type PriceLevel = (typeof PRICE_LEVELS)[number];

export const CUSTOMER_TIERS = ['retail', 'silver', 'gold'] as const;
export type CustomerTier = (typeof CUSTOMER_TIERS)[number];

/** True when `value` names a customer tier. */
export function isCustomerTier(value: string): value is CustomerTier {
  return (CUSTOMER_TIERS as readonly string[]).includes(value);
}

/** One stored price row for a product in a channel. */
export interface PriceCandidate {
  id: string;
  level: PriceLevel;
  tierCode: string | null;
  customerId: string | null;
  minQuantity: number;
  /** ISO timestamp; the row applies from this instant (inclusive). Null: no lower bound. */
  validFrom: string | null;
  /** ISO timestamp; the row applies until this instant (exclusive). Null: no upper bound. */
  validTo: string | null;
  /** Integer minor units: gross in channels whose prices include VAT, else net. */
  amount: number;
}

/** What a channel contributes to pricing. */
export interface PricingChannel {
  currency: string;
  pricesIncludeVat: boolean;
}
