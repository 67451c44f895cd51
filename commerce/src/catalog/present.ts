import type { ResolvedPrice } from '../pricing/resolve-price.ts';

/** The JSON shape of a unit price; money in integer minor units of `currency`. */
export interface PriceJson {
  amount: number;
  net: number;
  vat: number;
  gross: number;
  vatRate: number;
  vatRateBp: number;
  currency: string;
  source: ResolvedPrice['source'];
  minQuantity: number;
}

/** Presents a resolved price for JSON responses (drops internal ids). */
export function presentPrice(price: ResolvedPrice): PriceJson {
  return {
    amount: price.amount,
    net: price.net,
    vat: price.vat,
    gross: price.gross,
    vatRate: price.vatRate,
    vatRateBp: price.vatRateBp,
    currency: price.currency,
    source: price.source,
    minQuantity: price.minQuantity,
  };
}
