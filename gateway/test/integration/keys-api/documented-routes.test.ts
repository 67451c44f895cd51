import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  IDENTITIES_PREFIX,
  isManagementPath,
  MANAGEMENT_PREFIX,
  MANAGEMENT_SCOPE,
  PLANS_PREFIX,
  USAGE_PREFIX,
} from '@keygate/contracts/gateway';
import type { Router } from 'express';
import {
  createIdentityAnalyticsRouter,
  createKeyAnalyticsRouter,
} from '../../../src/analytics/analytics-routes.ts';
import { DEFAULT_OPENAPI_FILE } from '../../../src/config.ts';
import { createBudgetRouters } from '../../../src/keys-api/budget-router.ts';
import { createKeysRouter } from '../../../src/keys-api/router.ts';

type Operation = Record<string, unknown>;

/** `METHOD /v2/auth/keys/{id}:rotate` for every management operation (keys, plans, identities) the shipped document lists. */
function documentedRoutes(): Array<{ key: string; operation: Operation }> {
  const document = JSON.parse(readFileSync(DEFAULT_OPENAPI_FILE, 'utf8')) as {
    paths: Record<string, Record<string, Operation>>;
  };
  return Object.entries(document.paths)
    .filter(([path]) => isManagementPath(path))
    .flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => ({
        key: `${method.toUpperCase()} ${path}`,
        operation,
      })),
    );
}

/** The same form for every route a management router (mounted at `prefix`) really serves. */
function routesOf(prefix: string, mounted: Router): string[] {
  const router = mounted as unknown as {
    stack: Array<{ route?: { path: string; methods: Record<string, boolean> } }>;
  };
  return router.stack.flatMap(({ route }) => {
    if (!route) return [];
    // Express writes a literal colon as `\:`; `:name` elsewhere is a parameter.
    const [head = '', ...literals] = route.path.replace(/\/$/, '').split('\\:');
    const path = [prefix + head.replace(/:(\w+)/g, '{$1}'), ...literals].join(':');
    return Object.keys(route.methods).map((method) => `${method.toUpperCase()} ${path}`);
  });
}

/** Every route the keys, plans and identities routers serve. */
function servedRoutes(): string[] {
  const budget = createBudgetRouters({
    plans: {} as never,
    identities: {} as never,
    budgetService: {} as never,
  });
  // A key's usage has two handlers (billing with `period`, traffic without): one documented operation.
  const served = [
    ...routesOf(MANAGEMENT_PREFIX, createKeysRouter({ keyService: {} as never, budgetService: {} as never })),
    ...routesOf(PLANS_PREFIX, budget.plans),
    ...routesOf(IDENTITIES_PREFIX, budget.identities),
    ...routesOf(USAGE_PREFIX, budget.usage),
    ...routesOf(
      MANAGEMENT_PREFIX,
      createKeyAnalyticsRouter({ keyService: {} as never, usage: {} as never, clock: Date.now }),
    ),
    ...routesOf(
      IDENTITIES_PREFIX,
      createIdentityAnalyticsRouter({ store: {} as never, usage: {} as never, clock: Date.now }),
    ),
  ];
  return [...new Set(served)];
}

describe('the OpenAPI document (packages/openapi/openapi.json)', () => {
  it('documents exactly the routes the management routers serve, each needing auth:rw', () => {
    const documented = documentedRoutes().map(({ key, operation }) => {
      assert.equal(operation['x-required-scope'], MANAGEMENT_SCOPE, key);
      return key;
    });
    assert.ok(documented.length > 0);
    assert.deepEqual([...documented].sort(), servedRoutes().sort());
  });
});
