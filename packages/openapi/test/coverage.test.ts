import assert from 'node:assert/strict';
import { ERROR_TABLE, EVENT_TYPES, TEST_EVENT_TYPE } from '@keygate/contracts/commerce';
import {
  ALERT_EVENT_TYPES,
  ALERT_MANAGEMENT_PREFIXES,
  ALERT_TEST_EVENT_TYPE,
  ERRORS,
  isManagementPath,
  type RouteTable,
} from '@keygate/contracts/gateway';
import { problemType } from '@keygate/problem';
import { buildDocument, type JsonSchema, loadDefaultRouteTable } from '../src/index.ts';
import { operationsOf, readCommittedDocument } from './document-file.ts';

const document = readCommittedDocument();
const operations = operationsOf(document);
const PUBLIC = new Set(['GET /v2/openapi.json']);

describe('what the document covers', () => {
  it('documents every route of the route table with its scope, and nothing the table lacks', () => {
    const table = loadDefaultRouteTable();
    const byKey = new Map(operations.map(({ key, operation }) => [key, operation]));
    for (const route of table.routes) {
      const operation = byKey.get(`${route.method} ${route.path}`);
      assert.ok(operation, `${route.method} ${route.path} is not documented`);
      assert.equal(operation['x-required-scope'], route.scope, `${route.method} ${route.path}`);
      assert.match(String(operation.description), new RegExp(`\`${route.scope}\``));
    }
    const tableKeys = new Set(table.routes.map((route) => `${route.method} ${route.path}`));
    const extra = operations
      .map(({ key }) => key)
      .filter(
        (key) =>
          !tableKeys.has(key) &&
          !isManagementPath(key.slice(key.indexOf(' ') + 1)) &&
          !ALERT_MANAGEMENT_PREFIXES.some((prefix) => key.includes(` ${prefix}`)) &&
          !PUBLIC.has(key),
      );
    assert.deepEqual(extra, []);
  });

  it('gives every operation a unique camelCase operationId and one tag', () => {
    const ids = operations.map(({ operation }) => String(operation.operationId));
    for (const id of ids) assert.match(id, /^[a-z]+[A-Za-z]*$/);
    assert.equal(new Set(ids).size, ids.length);
    for (const { operation } of operations) assert.equal((operation.tags as string[]).length, 1);
  });

  it('lists every integrator-facing problem type of both error tables, with its status', () => {
    const listed = new Map(
      (document['x-problem-types'] as Array<{ type: string; status: number }>).map((entry) => [
        entry.type,
        entry,
      ]),
    );
    const integrator = Object.entries(ERRORS).filter(([, spec]) => spec.surface !== 'admin');
    assert.ok(integrator.length >= 25, 'the filter keeps the gateway codes');
    for (const [code, { status }] of [...integrator, ...Object.entries(ERROR_TABLE)]) {
      assert.equal(listed.get(problemType(code))?.status, status, code);
    }
  });

  it('leaves the admin interface’s own codes out of the whole document', () => {
    const admin = Object.entries(ERRORS)
      .filter(([, spec]) => spec.surface === 'admin')
      .map(([code]) => code);
    for (const code of [
      'ADMIN_SESSION_REQUIRED',
      'INVALID_CREDENTIALS',
      'LOGIN_THROTTLED',
      'CSRF_REJECTED',
    ]) {
      assert.ok(admin.includes(code), `${code} is marked admin-only`);
    }
    const text = JSON.stringify(document);
    for (const code of admin) {
      assert.ok(!text.includes(code) && !text.includes(problemType(code)), `${code} is in the document`);
    }
  });

  it('documents 401 with the Bearer challenge and 429 with the rate-limit headers, only for the codes that send them', () => {
    const responses = (document.components as { responses: Record<string, JsonSchema> }).responses;
    const headersOf = (name: string) => {
      const headers = responses[name]?.headers as Record<string, { $ref?: string }>;
      return Object.keys(headers).filter((header) => headers[header]?.$ref);
    };
    assert.deepEqual(headersOf('Unauthorized'), ['WWW-Authenticate', 'X-Request-Id']);
    assert.deepEqual(headersOf('TooManyRequests'), [
      'Retry-After',
      'RateLimit-Policy',
      'RateLimit',
      'X-Request-Id',
    ]);
    assert.deepEqual(
      [...((responses.TooManyRequests?.['x-problem-types'] ?? []) as string[])].sort(),
      [
        problemType('RATE_LIMITED'),
        problemType('QUOTA_EXCEEDED'),
        problemType('CREDITS_EXHAUSTED'),
        problemType('TOO_MANY_CONCURRENT_REQUESTS'),
      ].sort(),
    );
    const unauthorized = responses.Unauthorized?.['x-problem-types'] as string[];
    const keyCodes = [
      'MISSING_KEY',
      'MALFORMED_KEY',
      'UNKNOWN_KEY',
      'KEY_REVOKED',
      'SECRET_CLOSED',
      'KEY_EXPIRED',
    ];
    assert.deepEqual([...unauthorized].sort(), keyCodes.map(problemType).sort());
  });

  it('has a webhook with a payload schema and the Standard Webhooks headers for every event and alert type', () => {
    type Webhook = { post: { parameters: Array<{ name: string }>; requestBody: JsonSchema } };
    const webhooks = document.webhooks as Record<string, Webhook>;
    const schemas = (document.components as { schemas: Record<string, JsonSchema> }).schemas;
    assert.deepEqual(
      Object.keys(webhooks).sort(),
      [...EVENT_TYPES, TEST_EVENT_TYPE, ...ALERT_EVENT_TYPES, ALERT_TEST_EVENT_TYPE].sort(),
    );
    for (const type of Object.keys(webhooks)) {
      const names = webhooks[type]?.post.parameters.map((parameter) => parameter.name);
      assert.deepEqual(names, ['webhook-id', 'webhook-timestamp', 'webhook-signature'], type);
      const body = JSON.stringify(webhooks[type]?.post.requestBody);
      const name = /"#\/components\/schemas\/(\w+)"/.exec(body)?.[1] ?? '';
      const payload = schemas[name] as { properties: { type: { const: string } }; required: string[] };
      assert.equal(payload.properties.type.const, type);
      assert.deepEqual(payload.required, ['id', 'type', 'createdAt', 'environment', 'data']);
    }
  });

  it('names the server relatively, never a fixed host', () => {
    const servers = document.servers as Array<{ url: string }>;
    assert.deepEqual(
      servers.map((server) => server.url),
      ['/'],
    );
  });

  it('resolves every $ref inside the document', () => {
    const refs = JSON.stringify(document).match(/"\$ref":"[^"]+"/g) ?? [];
    for (const ref of new Set(refs)) {
      const pointer = ref.slice('"$ref":"#/'.length, -1).split('/');
      let node: unknown = document;
      for (const part of pointer) node = (node as Record<string, unknown> | undefined)?.[part];
      assert.ok(node, `${ref} does not resolve`);
    }
  });
});

describe('deprecations in the route table', () => {
  it('mark the operations of deprecated routes, and only those', () => {
    const table = loadDefaultRouteTable();
    const deprecation = {
      at: '2027-01-01T00:00:00Z',
      sunset: '2027-07-01T00:00:00Z',
      link: 'https://x.test/policy',
    };
    const routes = table.routes.map((route) =>
      route.path === '/v2/channels' ? { ...route, deprecation } : route,
    );
    const built = buildDocument({ ...table, routes } as RouteTable);
    const deprecated = operationsOf(built).filter(({ operation }) => operation.deprecated);
    assert.deepEqual(
      deprecated.map(({ key }) => key),
      ['GET /v2/channels'],
    );
    assert.equal(
      operationsOf(readCommittedDocument()).filter(({ operation }) => operation.deprecated).length,
      0,
    );
  });
});
