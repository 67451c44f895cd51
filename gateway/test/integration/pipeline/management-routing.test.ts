import assert from 'node:assert/strict';
import { PROBLEM_CONTENT_TYPE } from '@keygate/problem';
import express, { type NextFunction, type Request, type Response } from 'express';
import request from 'supertest';
import type { Principal } from '../../../src/auth/principal.ts';
import { GatewayError } from '../../../src/errors.ts';
import type { KeyService } from '../../../src/keys/key-service.ts';
import { createKeysRouter } from '../../../src/keys-api/router.ts';
import { compileRoutes, MANAGEMENT_ROUTE, type RouteMatch } from '../../../src/routes/route-matcher.ts';
import { RouteTableSchema } from '../../../src/routes/route-table.ts';
import { startTestGateway, type TestGateway } from '../../support/gateway.ts';
import { seedKey } from '../../support/keys.ts';

/** A key service whose only used method, listKeys, counts its calls. */
function countingKeyService(): { service: KeyService; listed: () => number } {
  let listed = 0;
  const service = {
    async listKeys() {
      listed++;
      return [];
    },
  } as unknown as KeyService;
  return { service, listed: () => listed };
}

/** A table that also proxies `GET /v2/{section}/keys` with `article:r`. */
const tableWithSectionKeys = (urls: { live: string; test: string }) => ({
  upstreams: { commerce: { audience: 'commerce', ...urls } },
  defaultUpstream: 'commerce',
  routes: [{ method: 'GET', path: '/v2/{section}/keys', scope: 'article:r' }],
});

describe('gateway: the management mount and case', () => {
  describe('GET /v2/AUTH/keys and /v2/auth/KEYS', () => {
    describe('with a route table holding GET /v2/{section}/keys and an article:r key', () => {
      let gw: TestGateway;
      let keys: ReturnType<typeof countingKeyService>;
      beforeEach(async () => {
        keys = countingKeyService();
        gw = await startTestGateway({
          routeTable: tableWithSectionKeys,
          keysRouter: createKeysRouter({ keyService: keys.service }),
        });
      });
      afterEach(() => gw.stop());

      it('never reaches the keys router: the table route proxies or nothing matches', async () => {
        const { token } = await seedKey(gw.store, gw.hasher, { scopes: ['article:r'] });
        const upper = await request(gw.app).get('/v2/AUTH/keys').set('Authorization', `Bearer ${token}`);
        assert.equal(upper.status, 200);
        assert.equal(upper.body.upstream, 'live', 'answered by the upstream the table names');
        assert.equal(upper.body.url, '/v2/AUTH/keys');
        const keysUpper = await request(gw.app).get('/v2/auth/KEYS').set('Authorization', `Bearer ${token}`);
        assert.equal(keysUpper.status, 404);
        assert.equal(keysUpper.body.code, 'ROUTE_NOT_FOUND');
        assert.equal(keys.listed(), 0);
      });

      it('still requires auth:rw on the real /v2/auth/keys', async () => {
        const { token } = await seedKey(gw.store, gw.hasher, { scopes: ['article:r'] });
        const res = await request(gw.app).get('/v2/auth/keys').set('Authorization', `Bearer ${token}`);
        assert.equal(res.status, 403);
        assert.equal(res.body.requiredScope, 'auth:rw');
        const admin = await seedKey(gw.store, gw.hasher, { scopes: ['auth:rw'] });
        const ok = await request(gw.app).get('/v2/auth/keys').set('Authorization', `Bearer ${admin.token}`);
        assert.equal(ok.status, 200);
        assert.equal(keys.listed(), 1);
      });
    });
  });

  describe('createKeysRouter', () => {
    /** A case-insensitive app (Express's default) that sets a principal and the given route, as a miswired pipeline might. */
    function appWithRoute(route: RouteMatch | undefined, keyService: KeyService) {
      const app = express();
      app.use((_req: Request, res: Response, next: NextFunction) => {
        res.locals.principal = {
          key: { id: 'key_1', environment: 'live' },
          clientIp: '127.0.0.1',
        } as unknown as Principal;
        res.locals.route = route;
        next();
      });
      app.use('/v2/auth/keys', createKeysRouter({ keyService }));
      app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
        const problem = (
          error instanceof GatewayError ? error : new GatewayError('INTERNAL', 'internal')
        ).toProblem();
        res.status(problem.status).type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(problem));
      });
      return app;
    }

    describe('with a request whose matched route is not the management route', () => {
      it('refuses it without calling the key service', async () => {
        const keys = countingKeyService();
        const table = RouteTableSchema.parse(
          tableWithSectionKeys({ live: 'http://l:1', test: 'http://t:2' }),
        );
        const proxied = compileRoutes(table).match('GET', '/v2/AUTH/keys') ?? undefined;
        assert.equal(proxied?.kind, 'proxy');
        for (const route of [proxied, undefined]) {
          const res = await request(appWithRoute(route, keys.service)).get('/v2/AUTH/keys');
          assert.notEqual(res.status, 200);
          assert.equal(res.body.code, 'INTERNAL');
        }
        assert.equal(keys.listed(), 0);
      });
    });

    describe('with the management route', () => {
      it('serves the request', async () => {
        const keys = countingKeyService();
        const app = appWithRoute(MANAGEMENT_ROUTE, keys.service);
        assert.equal((await request(app).get('/v2/auth/keys')).status, 200);
        assert.equal(keys.listed(), 1);
      });
    });
  });
});
