/** Pricing vocabulary shared by the catalogue, carts and GraphQL. */
import {
  CUSTOMER_TIERS,
  type CustomerTier,
  PRICE_LEVELS,
  type PriceLevel,
} from '@keygate/contracts/commerce';

export { CUSTOMER_TIERS, type CustomerTier, PRICE_LEVELS, type PriceLevel };
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
