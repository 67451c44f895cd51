import type { PriceLevel } from '../pricing/types.ts';

/** The JSON shape of a stored price row, in responses and in `pricing.price.*` event payloads. */
export interface PriceRowJson {
  id: string;
  sku: string;
  productId: string;
  channel: string;
  /** The channel's currency; `amount` is in its minor units. */
  currency: string;
  level: PriceLevel;
  /** The tier a `tier` price applies to, else null. */
  tier: string | null;
  /** The customer an `agreement` price applies to, else null. */
  customerId: string | null;
  minQuantity: number;
  validFrom: string | null;
  validTo: string | null;
  /** Gross in channels whose prices include VAT, else net. */
  amount: number;
}
