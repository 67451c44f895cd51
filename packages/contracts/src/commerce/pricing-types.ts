/** Pricing vocabulary of the commerce API: price levels and customer tiers. */
export const PRICE_LEVELS = ['base', 'tier', 'agreement'] as const;

export type PriceLevel = (typeof PRICE_LEVELS)[number];

export const CUSTOMER_TIERS = ['retail', 'silver', 'gold'] as const;

export type CustomerTier = (typeof CUSTOMER_TIERS)[number];
