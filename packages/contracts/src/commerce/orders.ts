import { z } from 'zod';

/** Body of the order actions: none, or an empty JSON object. */
export const OrderActionSchema = z
  .strictObject({}, { error: 'send no body or an empty JSON object' })
  .optional();
