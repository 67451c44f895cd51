import { z } from 'zod';
import { responseComponent } from '../registries.ts';
import { count } from './common.ts';

const levels = {
  onHand: count('Units in the warehouse.'),
  allocated: count('Units held by placed orders.'),
  available: count('onHand − allocated: what can still be ordered.'),
};

/** Units on hand, allocated to orders, and available (on hand − allocated). */
export const StockLevelSchema = responseComponent('StockLevel', z.object(levels));

/** The stock of one SKU. */
export const StockSchema = responseComponent('Stock', z.object({ sku: z.string(), ...levels }));
