/**
 * Every error the gateway answers with. The codes are part of the public contract: they
 * appear as `code` in problem+json bodies and name the `type` URI. Add codes here (and only
 * here); the table below must map each one, so the compiler proves none is forgotten.
 */
export type ErrorCode =
  | 'MISSING_KEY'
  | 'MALFORMED_KEY'
  | 'UNKNOWN_KEY'
  | 'KEY_REVOKED'
  | 'SECRET_CLOSED'
  | 'KEY_EXPIRED'
  | 'INSUFFICIENT_SCOPE'
  | 'IP_NOT_ALLOWED'
  | 'ENVIRONMENT_MISMATCH'
  | 'ESCALATION_DENIED'
  | 'RATE_LIMITED'
  | 'QUOTA_EXCEEDED'
  | 'CREDITS_EXHAUSTED'
  | 'ROUTE_NOT_FOUND'
  | 'KEY_NOT_FOUND'
  | 'PLAN_NOT_FOUND'
  | 'IDENTITY_NOT_FOUND'
  | 'PLAN_IN_USE'
  | 'IDENTITY_HAS_KEYS'
  | 'IDENTITY_EXISTS'
  | 'CREDITS_NOT_HELD'
  | 'SECRET_NOT_FOUND'
  | 'ALERT_ENDPOINT_NOT_FOUND'
  | 'ALERT_DELIVERY_NOT_FOUND'
  | 'ALERT_URL_NOT_ALLOWED'
  | 'ALERT_ENDPOINT_DISABLED'
  | 'ALERT_DELIVERY_IN_FLIGHT'
  | 'UNKNOWN_EVENT_TYPE'
  | 'ROTATION_IN_PROGRESS'
  | 'NO_ROTATION_IN_PROGRESS'
  | 'KEY_NOT_ACTIVE'
  | 'CONFLICT'
  | 'IDEMPOTENCY_KEY_IN_USE'
  | 'IDEMPOTENCY_KEY_REUSED'
  | 'MALFORMED_IDEMPOTENCY_KEY'
  | 'VALIDATION_FAILED'
  | 'MALFORMED_BODY'
  | 'MALFORMED_REQUEST'
  | 'PAYLOAD_TOO_LARGE'
  | 'HEADERS_TOO_LARGE'
  | 'EXPECTATION_FAILED'
  | 'REQUEST_TIMEOUT'
  | 'TOO_MANY_CONCURRENT_REQUESTS'
  | 'UPSTREAM_UNAVAILABLE'
  | 'UPSTREAM_TIMEOUT'
  | 'STORE_UNAVAILABLE'
  | 'OUTCOME_UNKNOWN'
  | 'VERIFICATION_BUSY'
  | 'UNKNOWN_API_VERSION'
  | 'ADMIN_SESSION_REQUIRED'
  | 'INVALID_CREDENTIALS'
  | 'LOGIN_THROTTLED'
  | 'CSRF_REJECTED'
  | 'ADMIN_UI_NOT_BUILT'
  | 'INTERNAL';

/** What the table says about a code. */
export interface ErrorSpec {
  status: number;
  title: string;
  /**
   * `admin`: answered only by the admin interface (`/admin/…`, session cookie), never to an API
   * key, so left out of the integrators' OpenAPI document. Absent: integrator-facing.
   */
  surface?: 'admin';
}

/** Status, title and surface of every code; typed by ErrorCode, so no code can be left out. */
export const ERRORS: Record<ErrorCode, ErrorSpec> = {
  MISSING_KEY: { status: 401, title: 'API key required' },
  MALFORMED_KEY: { status: 401, title: 'Malformed API key' },
  UNKNOWN_KEY: { status: 401, title: 'Unknown API key' },
  KEY_REVOKED: { status: 401, title: 'API key revoked' },
  SECRET_CLOSED: { status: 401, title: 'API key secret closed' },
  KEY_EXPIRED: { status: 401, title: 'API key expired' },
  INSUFFICIENT_SCOPE: { status: 403, title: 'Missing scope' },
  IP_NOT_ALLOWED: { status: 403, title: 'Client IP not allowed' },
  ENVIRONMENT_MISMATCH: { status: 403, title: 'Wrong environment' },
  ESCALATION_DENIED: { status: 403, title: 'Privilege escalation refused' },
  RATE_LIMITED: { status: 429, title: 'Rate limit exceeded' },
  QUOTA_EXCEEDED: { status: 429, title: 'Quota exceeded' },
  CREDITS_EXHAUSTED: { status: 429, title: 'Credits exhausted' },
  ROUTE_NOT_FOUND: { status: 404, title: 'No such route' },
  KEY_NOT_FOUND: { status: 404, title: 'API key not found' },
  PLAN_NOT_FOUND: { status: 404, title: 'Plan not found' },
  IDENTITY_NOT_FOUND: { status: 404, title: 'Identity not found' },
  PLAN_IN_USE: { status: 409, title: 'Plan in use' },
  IDENTITY_HAS_KEYS: { status: 409, title: 'Identity still has keys' },
  IDENTITY_EXISTS: { status: 409, title: 'Identity already exists' },
  CREDITS_NOT_HELD: { status: 409, title: 'No credit balance held' },
  ALERT_ENDPOINT_NOT_FOUND: { status: 404, title: 'Alert endpoint not found' },
  ALERT_DELIVERY_NOT_FOUND: { status: 404, title: 'Alert delivery not found' },
  ALERT_URL_NOT_ALLOWED: { status: 422, title: 'Alert endpoint URL not allowed' },
  ALERT_ENDPOINT_DISABLED: { status: 409, title: 'Alert endpoint disabled' },
  ALERT_DELIVERY_IN_FLIGHT: { status: 409, title: 'Alert delivery in flight' },
  UNKNOWN_EVENT_TYPE: { status: 422, title: 'Unknown event type' },
  SECRET_NOT_FOUND: { status: 404, title: 'Secret not found' },
  ROTATION_IN_PROGRESS: { status: 409, title: 'A rotation is already in progress' },
  NO_ROTATION_IN_PROGRESS: { status: 409, title: 'No rotation in progress' },
  KEY_NOT_ACTIVE: { status: 409, title: 'API key is not active' },
  CONFLICT: { status: 409, title: 'Concurrent change' },
  IDEMPOTENCY_KEY_IN_USE: { status: 409, title: 'Idempotency key in use' },
  IDEMPOTENCY_KEY_REUSED: { status: 422, title: 'Idempotency key reused' },
  MALFORMED_IDEMPOTENCY_KEY: { status: 400, title: 'Malformed idempotency key' },
  VALIDATION_FAILED: { status: 422, title: 'Invalid request' },
  MALFORMED_BODY: { status: 400, title: 'Malformed request body' },
  MALFORMED_REQUEST: { status: 400, title: 'Malformed request' },
  PAYLOAD_TOO_LARGE: { status: 413, title: 'Request body too large' },
  HEADERS_TOO_LARGE: { status: 431, title: 'Request headers too large' },
  EXPECTATION_FAILED: { status: 417, title: 'Expectation not supported' },
  REQUEST_TIMEOUT: { status: 408, title: 'Request too slow' },
  TOO_MANY_CONCURRENT_REQUESTS: { status: 429, title: 'Too many concurrent requests' },
  UPSTREAM_UNAVAILABLE: { status: 502, title: 'Upstream unavailable' },
  UPSTREAM_TIMEOUT: { status: 504, title: 'Upstream timed out' },
  STORE_UNAVAILABLE: { status: 503, title: 'Key store unavailable' },
  OUTCOME_UNKNOWN: { status: 503, title: 'Outcome of the change unknown' },
  VERIFICATION_BUSY: { status: 503, title: 'Too many key verifications in progress' },
  UNKNOWN_API_VERSION: { status: 404, title: 'Unknown API version' },
  ADMIN_SESSION_REQUIRED: { status: 401, title: 'Administrator session required', surface: 'admin' },
  INVALID_CREDENTIALS: { status: 401, title: 'Wrong email or password', surface: 'admin' },
  LOGIN_THROTTLED: { status: 429, title: 'Too many failed logins', surface: 'admin' },
  CSRF_REJECTED: { status: 403, title: 'Cross-site request refused', surface: 'admin' },
  ADMIN_UI_NOT_BUILT: { status: 503, title: 'Admin interface not built', surface: 'admin' },
  INTERNAL: { status: 500, title: 'Internal error' },
};
