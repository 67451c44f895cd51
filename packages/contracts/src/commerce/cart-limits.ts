/** The most units of one product a cart line may hold (the API validates 1..999 per request). */
export const MAX_LINE_QUANTITY = 999;

/** The most distinct products one cart may hold. */
export const MAX_CART_LINES = 100;
