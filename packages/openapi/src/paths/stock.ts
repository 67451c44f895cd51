import { AdjustStockSchema, SetStockSchema } from '@keygate/contracts/commerce';
import type { OperationSpec } from '../operation.ts';
import { requestComponent } from '../registries.ts';
import { StockSchema } from '../schemas/stock.ts';
import { proxiedErrors } from './errors.ts';

const SetStockRequest = requestComponent('SetStockRequest', SetStockSchema);
const AdjustStockRequest = requestComponent('AdjustStockRequest', AdjustStockSchema);

const EVENTS =
  ' Emits `stock.updated` and, when available crosses zero, `stock.out_of_stock` or `stock.back_in_stock`.';

/** Stock levels (scope stock:r / stock:rw). */
export const STOCK_OPERATIONS: readonly OperationSpec[] = [
  {
    method: 'GET',
    path: '/v2/stock/{sku}',
    operationId: 'getStock',
    tag: 'Stock',
    kind: 'proxied',
    summary: 'Get the stock of a product',
    success: { status: 200, description: 'On hand, allocated and available.', schema: StockSchema },
    errors: proxiedErrors(['PRODUCT_NOT_FOUND']),
  },
  {
    method: 'PUT',
    path: '/v2/stock/{sku}',
    operationId: 'setStock',
    tag: 'Stock',
    kind: 'proxied',
    summary: 'Set the units on hand',
    description: `Sets on hand (0..10⁹, never below what orders hold).${EVENTS}`,
    body: { schema: SetStockRequest, required: true },
    success: { status: 200, description: 'The new level.', schema: StockSchema },
    errors: proxiedErrors(['PRODUCT_NOT_FOUND', 'STOCK_BELOW_ALLOCATED'], { body: true }),
  },
  {
    method: 'POST',
    path: '/v2/stock/{sku}:adjust',
    operationId: 'adjustStock',
    tag: 'Stock',
    kind: 'proxied',
    summary: 'Adjust the units on hand',
    description: `Adds \`delta\` (negative to remove; the result never below what orders hold).${EVENTS}`,
    body: { schema: AdjustStockRequest, required: true },
    success: { status: 200, description: 'The new level.', schema: StockSchema },
    errors: proxiedErrors(['PRODUCT_NOT_FOUND', 'STOCK_BELOW_ALLOCATED'], { body: true }),
  },
];
