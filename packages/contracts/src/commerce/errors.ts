/**
 * Every error code commerce answers with, and its HTTP status. The codes are part of the public
 * contract (they appear in problem+json bodies and GraphQL error extensions).
 * Naming: `*_NOT_FOUND` (404) is the resource named by the URL path; `UNKNOWN_*` (422) is a
 * reference in a header, query parameter or body that names nothing.
 */
export type CommerceErrorCode =
  | 'VALIDATION_FAILED'
  | 'MALFORMED_JSON'
  | 'MALFORMED_REQUEST'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'METHOD_NOT_ALLOWED'
  | 'UNKNOWN_CHANNEL'
  | 'UNKNOWN_CUSTOMER'
  | 'UNKNOWN_PRODUCT'
  | 'INVALID_CURSOR'
  | 'NOT_SOLD_IN_CHANNEL'
  | 'LINE_QUANTITY_LIMIT'
  | 'CART_LINE_LIMIT'
  | 'UNKNOWN_EVENT_TYPE'
  | 'ENDPOINT_URL_NOT_ALLOWED'
  | 'CART_EMPTY'
  | 'INSUFFICIENT_STOCK'
  | 'CART_CHECKED_OUT'
  | 'ORDER_STATUS_CONFLICT'
  | 'STOCK_BELOW_ALLOCATED'
  | 'ENDPOINT_DISABLED'
  | 'DELIVERY_IN_FLIGHT'
  | 'IDEMPOTENCY_KEY_IN_USE'
  | 'IDEMPOTENCY_KEY_REUSED'
  | 'MALFORMED_IDEMPOTENCY_KEY'
  | 'PRODUCT_NOT_FOUND'
  | 'CART_NOT_FOUND'
  | 'CART_LINE_NOT_FOUND'
  | 'CUSTOMER_NOT_FOUND'
  | 'ORDER_NOT_FOUND'
  | 'PRICE_NOT_FOUND'
  | 'ENDPOINT_NOT_FOUND'
  | 'DELIVERY_NOT_FOUND'
  | 'ROUTE_NOT_FOUND'
  | 'SANDBOX_ONLY'
  | 'ADMIN_ONLY'
  | 'NOT_READY'
  | 'INTERNAL_ERROR';

export const ERROR_TABLE: Record<CommerceErrorCode, { status: number; title: string }> = {
  VALIDATION_FAILED: { status: 422, title: 'Invalid request' },
  MALFORMED_JSON: { status: 400, title: 'Malformed JSON' },
  MALFORMED_REQUEST: { status: 400, title: 'Malformed request' },
  PAYLOAD_TOO_LARGE: { status: 413, title: 'Payload too large' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, title: 'Unsupported media type' },
  METHOD_NOT_ALLOWED: { status: 405, title: 'Method not allowed' },
  UNKNOWN_CHANNEL: { status: 422, title: 'Unknown channel' },
  UNKNOWN_CUSTOMER: { status: 422, title: 'Unknown customer' },
  UNKNOWN_PRODUCT: { status: 422, title: 'Unknown product' },
  INVALID_CURSOR: { status: 422, title: 'Invalid cursor' },
  NOT_SOLD_IN_CHANNEL: { status: 422, title: 'Not sold in this channel' },
  LINE_QUANTITY_LIMIT: { status: 422, title: 'Line quantity limit exceeded' },
  CART_LINE_LIMIT: { status: 422, title: 'Too many cart lines' },
  UNKNOWN_EVENT_TYPE: { status: 422, title: 'Unknown event type' },
  ENDPOINT_URL_NOT_ALLOWED: { status: 422, title: 'Endpoint URL not allowed' },
  CART_EMPTY: { status: 422, title: 'Cart is empty' },
  INSUFFICIENT_STOCK: { status: 409, title: 'Insufficient stock' },
  CART_CHECKED_OUT: { status: 409, title: 'Cart already checked out' },
  ORDER_STATUS_CONFLICT: { status: 409, title: 'Order status does not allow this' },
  STOCK_BELOW_ALLOCATED: { status: 409, title: 'Stock below allocated quantity' },
  ENDPOINT_DISABLED: { status: 409, title: 'Endpoint disabled' },
  DELIVERY_IN_FLIGHT: { status: 409, title: 'Delivery in flight' },
  IDEMPOTENCY_KEY_IN_USE: { status: 409, title: 'Idempotency key in use' },
  IDEMPOTENCY_KEY_REUSED: { status: 422, title: 'Idempotency key reused' },
  MALFORMED_IDEMPOTENCY_KEY: { status: 400, title: 'Malformed idempotency key' },
  PRODUCT_NOT_FOUND: { status: 404, title: 'Product not found' },
  CART_NOT_FOUND: { status: 404, title: 'Cart not found' },
  CART_LINE_NOT_FOUND: { status: 404, title: 'Cart line not found' },
  CUSTOMER_NOT_FOUND: { status: 404, title: 'Customer not found' },
  ORDER_NOT_FOUND: { status: 404, title: 'Order not found' },
  PRICE_NOT_FOUND: { status: 404, title: 'Price not found' },
  ENDPOINT_NOT_FOUND: { status: 404, title: 'Webhook endpoint not found' },
  DELIVERY_NOT_FOUND: { status: 404, title: 'Webhook delivery not found' },
  ROUTE_NOT_FOUND: { status: 404, title: 'Not found' },
  SANDBOX_ONLY: { status: 403, title: 'Test environment only' },
  ADMIN_ONLY: { status: 403, title: 'Administrators only' },
  NOT_READY: { status: 503, title: 'Not ready' },
  INTERNAL_ERROR: { status: 500, title: 'Internal error' },
};
