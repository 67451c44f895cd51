import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  ALERT_MANAGEMENT_PREFIXES,
  isManagementPath,
  MANAGEMENT_PREFIXES,
  MANAGEMENT_SCOPE,
  markDeprecations,
  type RouteTable,
  RouteTableSchema,
} from '@keygate/contracts/gateway';
import { headerComponents, parameterComponents } from './headers.ts';
import { buildComponentSchemas, type JsonSchema } from './json-schema.ts';
import { buildOperation, type OperationSpec } from './operation.ts';
import { ALERT_OPERATIONS } from './paths/alert-endpoints.ts';
import { IDENTITY_ANALYTICS_OPERATION, KEY_ANALYTICS_OPERATION } from './paths/analytics.ts';
import { CART_OPERATIONS } from './paths/carts.ts';
import { CATALOG_OPERATIONS } from './paths/catalog.ts';
import { DOCS_OPERATIONS } from './paths/docs.ts';
import { KEY_OPERATIONS } from './paths/keys.ts';
import { BUDGET_OPERATIONS, IDENTITY_OPERATIONS, PLAN_OPERATIONS } from './paths/plans.ts';
import { PRICING_OPERATIONS } from './paths/pricing.ts';
import { STOCK_OPERATIONS } from './paths/stock.ts';
import { WEBHOOK_OPERATIONS } from './paths/webhook-endpoints.ts';
import { listProblemTypes, problemResponses, problemSchemas } from './problems.ts';
import { ALERT_TAG, buildWebhooks, WEBHOOK_TAG } from './webhooks.ts';

/** The version of the document (the API itself is `/v2`). */
export const DOCUMENT_VERSION = '2.0.0';

/** Every operation an integrator can call through the gateway, in document order. */
export const OPERATIONS: readonly OperationSpec[] = [
  ...KEY_OPERATIONS,
  KEY_ANALYTICS_OPERATION,
  ...PLAN_OPERATIONS,
  ...IDENTITY_OPERATIONS,
  IDENTITY_ANALYTICS_OPERATION,
  ...BUDGET_OPERATIONS,
  ...ALERT_OPERATIONS,
  ...CATALOG_OPERATIONS,
  ...CART_OPERATIONS,
  ...PRICING_OPERATIONS,
  ...STOCK_OPERATIONS,
  ...WEBHOOK_OPERATIONS,
  ...DOCS_OPERATIONS,
];

const TAGS: ReadonlyArray<{ name: string; description: string }> = [
  {
    name: 'Keys',
    description:
      'API keys: create, scope, rotate, revoke; usage, analytics, activity and call logs. Scope `auth:rw`.',
  },
  {
    name: 'Plans',
    description: 'Limits, quotas and credits refills that keys and identities follow. Scope `auth:rw`.',
  },
  {
    name: 'Identities',
    description: 'Your customers: their keys share one budget. Scope `auth:rw`.',
  },
  {
    name: 'Alerts',
    description:
      'Where the gateway sends its alerts (signed webhooks), and their deliveries. Scope `auth:rw`.',
  },
  { name: 'Catalogue', description: 'Channels and the products they sell, priced for a customer.' },
  { name: 'GraphQL', description: 'The catalogue over GraphQL.' },
  { name: 'Carts', description: 'Carts belong to the key that created them.' },
  { name: 'Orders', description: 'Checkout, and the life of an order.' },
  { name: 'Customers', description: 'Customers and their tiers.' },
  { name: 'Customer pricing', description: 'What a customer pays: agreements and effective prices.' },
  { name: 'Prices', description: 'Price rows and VAT rates.' },
  { name: 'Stock', description: 'Units on hand, allocated and available.' },
  { name: 'Webhooks', description: 'Webhook endpoints and their deliveries.' },
  { name: WEBHOOK_TAG, description: 'What keygate sends to your endpoints (Standard Webhooks 1.0).' },
  { name: ALERT_TAG, description: 'What the gateway sends to your alert endpoints (Standard Webhooks 1.0).' },
  { name: 'Documentation', description: 'This document.' },
];

const DESCRIPTION = `Everything an integrator calls goes through the keygate gateway, under \`/v2\`.

**Authentication.** Send an API key as \`Authorization: Bearer <key>\`. Keys look like \`kg_live_<lookup>_<secret><checksum>\` or \`kg_test_…\`: a live key reaches only live data and a test key only test data. The token is shown once, when the key is created or rotated; only its prefix (\`kg_live_7Hq2xPab\`) is shown again.

**Scopes.** Each operation needs one scope (\`x-required-scope\`, also in its description): \`<resource>:r\` to read or \`<resource>:rw\` to read and write (\`rw\` implies \`r\`). Key management needs \`auth:rw\`.

**Rate limits.** Every answer to an authenticated call carries \`RateLimit-Policy\` and \`RateLimit\` (IETF draft-ietf-httpapi-ratelimit-headers); over the key's limit the gateway answers 429 with \`Retry-After\` (seconds).

**Errors** are \`application/problem+json\` (RFC 9457) with a stable \`type\` URI and \`code\`; \`x-problem-types\` lists every one. Bad input changes nothing.

**Money** is always an integer in minor units of an ISO 4217 currency.

**Deprecation.** A deprecated route keeps working and answers with \`Deprecation\` (RFC 9745), \`Sunset\` (RFC 8594) and a \`Link\` to the deprecation policy.

**Sandbox (test keys only).** \`POST /v2/webhooks/events:trigger\` emits a real event of any type. A request header \`Keygate-Test-Scenario\` (\`rate-limited\`, \`forbidden\`, \`upstream-unavailable\`, \`upstream-timeout\`) makes the gateway answer exactly as it would in that case (429 \`RATE_LIMITED\` with \`Retry-After\`, 403 \`INSUFFICIENT_SCOPE\`, 502 \`UPSTREAM_UNAVAILABLE\`, 504 \`UPSTREAM_TIMEOUT\`) without spending the key's budget or reaching the service; any other value is 400. A live key's header is ignored. The API log of a test key (\`GET /v2/auth/keys/{id}/logs\`) keeps request and response bodies. See docs/sandbox.md.`;

/**
 * The route table the shipped gateway uses by default. Read as a file (it is configuration the
 * document describes), never imported from the gateway: a shared package imports no application.
 */
const DEFAULT_ROUTES_FILE = fileURLToPath(new URL('../../../gateway/routes.json', import.meta.url));

/** The gateway's default route table (gateway/routes.json), validated as the gateway validates it. */
export function loadDefaultRouteTable(): RouteTable {
  return RouteTableSchema.parse(JSON.parse(readFileSync(DEFAULT_ROUTES_FILE, 'utf8')));
}

/** The scope an operation needs: the route table's, `auth:rw` for management, none for public. */
function scopeOf(spec: OperationSpec, table: RouteTable): string | null {
  if (spec.kind === 'public') return null;
  if (spec.kind === 'management') {
    const underAlerts = ALERT_MANAGEMENT_PREFIXES.some((prefix) => spec.path.startsWith(prefix));
    if (!isManagementPath(spec.path) && !underAlerts)
      throw new Error(`${spec.operationId} is not under ${MANAGEMENT_PREFIXES.join(', ')}`);
    return MANAGEMENT_SCOPE;
  }
  const route = table.routes.find((entry) => entry.method === spec.method && entry.path === spec.path);
  if (!route) throw new Error(`${spec.operationId}: ${spec.method} ${spec.path} is not in the route table`);
  return route.scope;
}

function buildPaths(table: RouteTable): Record<string, Record<string, JsonSchema>> {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const operationIds = new Set<string>();
  for (const spec of OPERATIONS) {
    if (operationIds.has(spec.operationId)) throw new Error(`duplicate operationId ${spec.operationId}`);
    operationIds.add(spec.operationId);
    const item = paths[spec.path] ?? {};
    item[spec.method.toLowerCase()] = buildOperation(spec, { scope: scopeOf(spec, table) });
    paths[spec.path] = item;
  }
  for (const route of table.routes) {
    if (!paths[route.path]?.[route.method.toLowerCase()]) {
      throw new Error(`route ${route.method} ${route.path} of the route table has no documented operation`);
    }
  }
  return paths;
}

/** Builds the OpenAPI 3.1 document of the shipped stack from the services' schemas, tables and route table. */
export function buildDocument(table: RouteTable = loadDefaultRouteTable()): JsonSchema {
  const paths = buildPaths(table);
  const document: JsonSchema = {
    openapi: '3.1.1',
    info: {
      title: 'keygate API',
      version: DOCUMENT_VERSION,
      summary: 'Catalogue, pricing, carts, orders and webhooks behind the keygate API-key gateway.',
      description: DESCRIPTION,
    },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    // Relative, so the document is right wherever a gateway serves it (and stays byte for byte the file).
    servers: [
      {
        url: '/',
        description:
          'The gateway that serves this document: relative to the URL `/v2/openapi.json` was fetched from.',
      },
    ],
    security: [{ bearerAuth: [] }],
    tags: TAGS,
    paths,
    webhooks: buildWebhooks(),
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'kg_<live|test>_<lookup>_<secret><checksum>',
          description:
            'An API key: `kg_live_…` or `kg_test_…`, then an 8-character lookup id, `_`, and 28 base62 characters (secret and CRC32 checksum). A malformed or mistyped key is refused without a lookup (401 MALFORMED_KEY).',
        },
      },
      schemas: { ...problemSchemas(), ...buildComponentSchemas() },
      parameters: parameterComponents(),
      responses: problemResponses(),
      headers: headerComponents(),
    },
    'x-problem-types': listProblemTypes(),
  };
  // Routes the table deprecates (by route or by version) are `deprecated` here as when served.
  return markDeprecations(document, table);
}
