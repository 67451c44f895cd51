import { z } from 'zod';
import { MAX_LINE_QUANTITY } from './cart-limits.ts';

/** Body of POST /v2/carts. */
export const CreateCartSchema = z.object(
  {
    channel: z.string({ error: 'channel is required (e.g. WEB_DE)' }).min(1).max(64),
    customerId: z.string().min(1).max(64).nullable().optional(),
  },
  { error: 'the body must be a JSON object' },
);

/** Body of POST /v2/carts/{id}/items: qty is an integer 1..999 (MAX_LINE_QUANTITY). */
export const AddItemSchema = z.object(
  {
    sku: z.string({ error: 'sku is required' }).min(1).max(64),
    qty: z
      .number({ error: `qty must be an integer 1..${MAX_LINE_QUANTITY}` })
      .int(`qty must be an integer 1..${MAX_LINE_QUANTITY}`)
      .min(1, `qty must be an integer 1..${MAX_LINE_QUANTITY}`)
      .max(MAX_LINE_QUANTITY, `qty must be an integer 1..${MAX_LINE_QUANTITY}`),
  },
  { error: 'the body must be a JSON object' },
);

/** Body of PATCH /v2/carts/{id}/items/{sku}: the line's new quantity, 1..999 (DELETE removes it). */
export const UpdateItemSchema = z.object(
  {
    qty: z
      .number({ error: `qty must be an integer 1..${MAX_LINE_QUANTITY}` })
      .int(`qty must be an integer 1..${MAX_LINE_QUANTITY}`)
      .min(1, `qty must be an integer 1..${MAX_LINE_QUANTITY}; DELETE the line to remove it`)
      .max(MAX_LINE_QUANTITY, `qty must be an integer 1..${MAX_LINE_QUANTITY}`),
  },
  { error: 'the body must be a JSON object' },
);
