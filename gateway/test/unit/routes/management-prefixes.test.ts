import assert from 'node:assert/strict';
import { compileRoutes } from '../../../src/routes/route-matcher.ts';
import { RouteTableSchema } from '../../../src/routes/route-table.ts';

const tableWith = (path: string) => ({
  upstreams: { commerce: { audience: 'commerce', live: 'http://live:1' } },
  defaultUpstream: 'commerce',
  routes: [{ method: 'GET', path, scope: 'order:r' }],
});

describe('the management prefixes (/v2/auth/keys, /plans, /identities)', () => {
  it('are refused in a route table, exactly and below', () => {
    for (const path of [
      '/v2/auth/keys',
      '/v2/auth/plans',
      '/v2/auth/plans/{id}',
      '/v2/auth/identities',
      '/v2/auth/identities/{id}',
    ]) {
      const result = RouteTableSchema.safeParse(tableWith(path));
      assert.equal(result.success, false, `${path} was accepted`);
      assert.match(JSON.stringify(result.error?.issues), /served by the gateway itself/);
    }
    assert.equal(RouteTableSchema.safeParse(tableWith('/v2/auth/planses')).success, true);
  });

  it('resolve to the management route for every method, and nothing else does', () => {
    const routes = compileRoutes(RouteTableSchema.parse(tableWith('/v2/auth/planses')));
    for (const path of [
      '/v2/auth/keys',
      '/v2/auth/keys/key_1',
      '/v2/auth/plans',
      '/v2/auth/identities/idt_1',
    ]) {
      for (const method of ['GET', 'POST', 'PATCH', 'DELETE'])
        assert.equal(routes.match(method, path)?.kind, 'management', `${method} ${path}`);
    }
    assert.equal(routes.match('GET', '/v2/auth/planses')?.kind, 'proxy');
    assert.equal(routes.match('GET', '/v2/auth/identitiesx'), null);
    assert.equal(routes.match('GET', '/v2/auth/PLANS'), null);
  });
});
