import {
  CreateCustomerSchema,
  CreatePriceSchema,
  CustomerPricingQuerySchema,
  ReplacePriceSchema,
  UpdateCustomerSchema,
  VatRateSchema as VatRateBodySchema,
  VatRateParamsSchema,
} from '@keygate/contracts/commerce';
import type { OperationSpec } from '../operation.ts';
import { requestComponent } from '../registries.ts';
import { CustomerPricingSchema, CustomerSchema } from '../schemas/customers.ts';
import { PriceSchema, VatRateSchema } from '../schemas/prices.ts';
import { proxiedErrors } from './errors.ts';

const CreateCustomerRequest = requestComponent('CreateCustomerRequest', CreateCustomerSchema);
const UpdateCustomerRequest = requestComponent('UpdateCustomerRequest', UpdateCustomerSchema);
const CreatePriceRequest = requestComponent('CreatePriceRequest', CreatePriceSchema);
const ReplacePriceRequest = requestComponent('ReplacePriceRequest', ReplacePriceSchema);
const SetVatRateRequest = requestComponent('SetVatRateRequest', VatRateBodySchema);

/** Customers, customer pricing, prices and VAT rates. */
export const PRICING_OPERATIONS: readonly OperationSpec[] = [
  {
    method: 'POST',
    path: '/v2/customers',
    operationId: 'createCustomer',
    tag: 'Customers',
    kind: 'proxied',
    summary: 'Create a customer',
    description: 'A customer with a tier (`retail` by default); emits `customer.created`.',
    body: { schema: CreateCustomerRequest, required: true },
    success: { status: 201, description: 'The new customer.', schema: CustomerSchema, location: true },
    errors: proxiedErrors([], { body: true }),
  },
  {
    method: 'GET',
    path: '/v2/customers/{id}',
    operationId: 'getCustomer',
    tag: 'Customers',
    kind: 'proxied',
    summary: 'Get a customer',
    success: { status: 200, description: 'The customer.', schema: CustomerSchema },
    errors: proxiedErrors(['CUSTOMER_NOT_FOUND']),
  },
  {
    method: 'PATCH',
    path: '/v2/customers/{id}',
    operationId: 'updateCustomer',
    tag: 'Customers',
    kind: 'proxied',
    summary: 'Change a customer’s name or tier',
    description:
      'Emits `customer.updated` and, when the tier changed, `customer.tier_changed`; a change that changes nothing emits nothing.',
    body: { schema: UpdateCustomerRequest, required: true },
    success: { status: 200, description: 'The customer.', schema: CustomerSchema },
    errors: proxiedErrors(['CUSTOMER_NOT_FOUND'], { body: true }),
  },
  {
    method: 'GET',
    path: '/v2/customers/{id}/pricing',
    operationId: 'getCustomerPricing',
    tag: 'Customer pricing',
    kind: 'proxied',
    summary: 'Get a customer’s agreements and effective prices',
    description:
      'One page of the products with agreement or tier prices for the customer, by SKU: their agreement price rows, and per channel their prices at quantity 1. Paged with `limit` (1..100, default 50) and `cursor` (the `nextCursor` of the previous page), like the catalogue.',
    query: CustomerPricingQuerySchema,
    success: { status: 200, description: 'A page of the customer’s pricing.', schema: CustomerPricingSchema },
    errors: proxiedErrors(['CUSTOMER_NOT_FOUND', 'VALIDATION_FAILED', 'INVALID_CURSOR']),
  },
  {
    method: 'POST',
    path: '/v2/prices',
    operationId: 'createPrice',
    tag: 'Prices',
    kind: 'proxied',
    summary: 'Create a price',
    description:
      'A base, tier (needs `tier`) or agreement (needs `customerId`) price of a product in a channel, with an optional quantity break and validity window; `amount` in integer minor units (gross in VAT-inclusive channels, else net). Emits `pricing.price.created`.',
    body: { schema: CreatePriceRequest, required: true },
    success: { status: 201, description: 'The new price.', schema: PriceSchema, location: true },
    errors: proxiedErrors(['UNKNOWN_PRODUCT', 'UNKNOWN_CHANNEL', 'UNKNOWN_CUSTOMER'], { body: true }),
  },
  {
    method: 'GET',
    path: '/v2/prices/{id}',
    operationId: 'getPrice',
    tag: 'Prices',
    kind: 'proxied',
    summary: 'Get a price',
    success: { status: 200, description: 'The price.', schema: PriceSchema },
    errors: proxiedErrors(['PRICE_NOT_FOUND']),
  },
  {
    method: 'PUT',
    path: '/v2/prices/{id}',
    operationId: 'replacePrice',
    tag: 'Prices',
    kind: 'proxied',
    summary: 'Replace the terms of a price',
    description:
      'Replaces amount, quantity break and validity (omitted fields take their defaults); emits `pricing.price.updated` when something changed.',
    body: { schema: ReplacePriceRequest, required: true },
    success: { status: 200, description: 'The price.', schema: PriceSchema },
    errors: proxiedErrors(['PRICE_NOT_FOUND'], { body: true }),
  },
  {
    method: 'DELETE',
    path: '/v2/prices/{id}',
    operationId: 'deletePrice',
    tag: 'Prices',
    kind: 'proxied',
    summary: 'Delete a price',
    description: 'Emits `pricing.price.deleted`.',
    success: { status: 204, description: 'Deleted.' },
    errors: proxiedErrors(['PRICE_NOT_FOUND']),
  },
  {
    method: 'PUT',
    path: '/v2/vat-rates/{country}/{taxClass}',
    operationId: 'setVatRate',
    tag: 'Prices',
    kind: 'proxied',
    summary: 'Set the VAT rate of a tax class in a country',
    description: 'Emits `pricing.vat_rate.updated` when the rate changed.',
    pathParams: VatRateParamsSchema,
    body: { schema: SetVatRateRequest, required: true },
    success: { status: 200, description: 'The rate.', schema: VatRateSchema },
    errors: proxiedErrors([], { body: true }),
  },
];
