import { z } from 'zod';
import { responseComponent } from '../registries.ts';
import { count } from './common.ts';

const levels = {
  onHand: count('Units in the warehouse.'),
  allocated: count('Units held by placed orders.'),
  available: count('onHand − allocated: what can still be ordered.'),
};

export const StockLevelSchema = responseComponent('StockLevel', z.object(levels));

export const StockSchema = responseComponent('Stock', z.object({ sku: z.string(), ...levels }));
