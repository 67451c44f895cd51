import type { ProductImage } from '@keygate/contracts/commerce';
import type { CustomerTier, PriceCandidate } from '../pricing/types.ts';

export type { ProductImage };

/** Catalogue records as the stores hand them to the domain (camelCase, money in minor units). */

export interface Channel {
  code: string;
  name: string;
  currency: string;
  taxCountry: string;
  pricesIncludeVat: boolean;
}

export interface Customer {
  id: string;
  name: string;
  tier: CustomerTier;
  createdAt: string;
  updatedAt: string;
}

export interface Product {
  id: string;
  sku: string;
  name: string;
  taxClass: string;
  /** The images set through the API, in order; null: none set, the generated image stands in. */
  images: ProductImage[] | null;
}

export interface StockLevel {
  onHand: number;
  allocated: number;
  /** onHand − allocated, never negative. */
  available: number;
}

/** A product with its stock (zero when it has no stock row). */
export interface StockedProduct extends Product {
  stock: StockLevel;
}

/** A price row with the product and channel it belongs to. */
export interface PriceRow extends PriceCandidate {
  productId: string;
  channelCode: string;
}

/** Query for one page of a channel's products. */
export interface ProductPageQuery {
  channelCode: string;
  /** Only products sold in the channel at this instant are listed. */
  at: Date;
  /** Exclusive lower bound: the page starts after this SKU. */
  afterSku: string | null;
  /** true: available > 0 only; false: available = 0 only; null: both. */
  inStock: boolean | null;
  /** Only products whose name or SKU contains this text (any case); null: all. */
  search: string | null;
  limit: number;
}
