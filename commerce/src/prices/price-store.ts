import type { PriceRowJson } from './price-json.ts';

/** A new price row as stored (ids, not SKUs). */
export interface PriceInsert {
  id: string;
  productId: string;
  channelCode: string;
  level: PriceRowJson['level'];
  tierCode: string | null;
  customerId: string | null;
  minQuantity: number;
  validFrom: string | null;
  validTo: string | null;
  amount: number;
}

/** The fields of a price a PUT replaces; level, product, channel and target are fixed. */
export type PriceTerms = Pick<PriceInsert, 'amount' | 'minQuantity' | 'validFrom' | 'validTo'>;

/** Storage port for price rows and VAT rates (synchronous; null for "not found"). */
export interface PriceStore {
  /** The price row with its SKU and channel currency, or null. */
  findPrice(id: string): PriceRowJson | null;
  /** Stores a new price row. */
  insertPrice(row: PriceInsert): void;
  /** Replaces a price row's terms. */
  updatePrice(id: string, terms: PriceTerms): void;
  /** Deletes a price row. */
  deletePrice(id: string): void;
  /** The VAT rate of a country and tax class in basis points, or null. */
  findVatRate(country: string, taxClass: string): number | null;
  /** Creates or replaces the VAT rate of a country and tax class. */
  saveVatRate(country: string, taxClass: string, rateBp: number): void;
}
