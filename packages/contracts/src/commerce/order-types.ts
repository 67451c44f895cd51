/** An order's life: placed (stock allocated) → fulfilled (stock shipped) or cancelled (released). */
export const ORDER_STATUSES = ['placed', 'cancelled', 'fulfilled'] as const;

export type OrderStatus = (typeof ORDER_STATUSES)[number];
