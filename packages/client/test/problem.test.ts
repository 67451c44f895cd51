import assert from 'node:assert/strict';
import { createKeygateClient, KeygateProblemError, UNEXPECTED_RESPONSE, unwrap } from '../src/index.ts';
import { fakeFetch, problemBody } from './support/fake-fetch.ts';

function clientAnswering(...answers: Parameters<typeof fakeFetch>) {
  return createKeygateClient({
    baseUrl: 'https://gw.test',
    apiKey: 'kg_live_x',
    fetch: fakeFetch(...answers).fetch,
  });
}

describe('problem errors', () => {
  it('returns a problem+json answer as a typed error with its extension members', async () => {
    const client = clientAnswering({
      status: 403,
      body: problemBody('INSUFFICIENT_SCOPE', 403, { requiredScope: 'stock:r', instance: '/v2/stock/A' }),
    });
    const { data, error, response } = await client.GET('/v2/stock/{sku}', { params: { path: { sku: 'A' } } });
    assert.equal(data, undefined);
    assert.equal(response.status, 403);
    assert.equal(error?.code, 'INSUFFICIENT_SCOPE');
    assert.equal(error?.requiredScope, 'stock:r');
    assert.equal(error?.type, 'https://keygate.dev/problems/insufficient-scope');
  });

  it('carries validation errors with a JSON pointer per field', async () => {
    const errors = [{ detail: 'must be an integer 1..100', pointer: '/qty' }];
    const client = clientAnswering({ status: 400, body: problemBody('VALIDATION_FAILED', 400, { errors }) });
    const { error } = await client.POST('/v2/carts/{id}/items', {
      params: { path: { id: 'cart_1' } },
      body: { sku: 'A', qty: 0 },
    });
    assert.deepEqual(error?.errors, errors);
  });

  it('unwrap returns data, or throws KeygateProblemError with the code and response', async () => {
    const client = clientAnswering(
      { status: 200, body: { data: [] } },
      { status: 401, headers: { 'www-authenticate': 'Bearer' }, body: problemBody('KEY_REVOKED', 401) },
    );
    assert.deepEqual(await unwrap(client.GET('/v2/channels')), { data: [] });
    const thrown = await unwrap(client.GET('/v2/channels')).catch((error: unknown) => error);
    assert.ok(thrown instanceof KeygateProblemError);
    assert.equal(thrown.code, 'KEY_REVOKED');
    assert.equal(thrown.status, 401);
    assert.equal(thrown.problem.detail, 'KEY_REVOKED happened');
    assert.equal(thrown.response.headers.get('www-authenticate'), 'Bearer');
    assert.match(thrown.message, /^401 KEY_REVOKED: /);
  });

  it('describes an error answer without a problem body instead of inventing one', async () => {
    const client = clientAnswering({ status: 502, body: '<html>Bad Gateway</html>' });
    const thrown = await unwrap(client.GET('/v2/channels')).catch((error: unknown) => error);
    assert.ok(thrown instanceof KeygateProblemError);
    assert.equal(thrown.code, UNEXPECTED_RESPONSE);
    assert.equal(thrown.status, 502);
    assert.match(thrown.problem.detail, /Bad Gateway/);
  });
});
