import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { MANAGEMENT_PREFIX, MANAGEMENT_SCOPE } from '@keygate/contracts/gateway';
import { createKeyAnalyticsRouter } from '../../../src/analytics/analytics-routes.ts';
import { DEFAULT_OPENAPI_FILE } from '../../../src/config.ts';
import { createKeysRouter } from '../../../src/keys-api/router.ts';

type Operation = Record<string, unknown>;

/** `METHOD /v2/auth/keys/{id}:rotate` for every key-management operation the shipped document lists. */
function documentedRoutes(): Array<{ key: string; operation: Operation }> {
  const document = JSON.parse(readFileSync(DEFAULT_OPENAPI_FILE, 'utf8')) as {
    paths: Record<string, Record<string, Operation>>;
  };
  return Object.entries(document.paths)
    .filter(([path]) => path.startsWith(MANAGEMENT_PREFIX))
    .flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => ({
        key: `${method.toUpperCase()} ${path}`,
        operation,
      })),
    );
}

/** The same form for every route the keys router and the key analytics router really serve. */
function servedRoutes(): string[] {
  const routers = [
    createKeysRouter({ keyService: {} as never }),
    createKeyAnalyticsRouter({ keyService: {} as never, usage: {} as never, clock: Date.now }),
  ] as unknown as Array<{ stack: Array<{ route?: { path: string; methods: Record<string, boolean> } }> }>;
  return routers
    .flatMap(({ stack }) => stack)
    .flatMap(({ route }) => {
      if (!route) return [];
      // Express writes a literal colon as `\:`; `:name` elsewhere is a parameter.
      const [head = '', ...literals] = route.path.replace(/\/$/, '').split('\\:');
      const path = [MANAGEMENT_PREFIX + head.replace(/:(\w+)/g, '{$1}'), ...literals].join(':');
      return Object.keys(route.methods).map((method) => `${method.toUpperCase()} ${path}`);
    });
}

describe('the OpenAPI document (packages/openapi/openapi.json)', () => {
  it('documents exactly the routes the key-management router serves, each needing auth:rw', () => {
    const documented = documentedRoutes().map(({ key, operation }) => {
      assert.equal(operation['x-required-scope'], MANAGEMENT_SCOPE, key);
      return key;
    });
    assert.ok(documented.length > 0);
    assert.deepEqual([...documented].sort(), servedRoutes().sort());
  });
});
