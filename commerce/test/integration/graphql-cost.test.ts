import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../support/app.ts';

/** `Keygate-Cost` on GraphQL answers: what the gateway charges the caller for the query. */
describe('GraphQL /v2/graphql Keygate-Cost', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  const page = (first: number) => `{ products(channel: WEB_DE, first: ${first}) { sku price { amount } } }`;

  it('prices a page by its size, on the first answer and on the cached one alike', async () => {
    for (let round = 0; round < 2; round += 1) {
      const res = await t.post('/v2/graphql', { query: page(10) });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.data.products.length, 10);
      assert.equal(res.headers['keygate-cost'], '13');
    }
  });

  it('charges a 250-product query more than a 10-product one, though it asks for more than a page holds', async () => {
    const small = await t.post('/v2/graphql', { query: page(10) });
    const large = await t.post('/v2/graphql', { query: page(250) });
    assert.equal(large.body.errors?.[0]?.extensions?.code, 'VALIDATION_FAILED');
    assert.equal(large.headers['keygate-cost'], '253');
    assert.ok(Number(large.headers['keygate-cost']) > Number(small.headers['keygate-cost']));
  });

  it('reads the page size from the variables of a GET and the operation it names', async () => {
    const query = 'query A($n: Int) { products(channel: WEB_DE, first: $n) { sku } } query B { __typename }';
    const params = new URLSearchParams({ query, variables: JSON.stringify({ n: 5 }), operationName: 'A' });
    const res = await t.get(`/v2/graphql?${params}`);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.products.length, 5);
    assert.equal(res.headers['keygate-cost'], '7');
  });

  it('charges the minimum for a document that does not parse, and sends no cost with a refusal', async () => {
    const broken = await t.post('/v2/graphql', { query: '{ products(' });
    assert.match(broken.body.errors?.[0]?.message ?? '', /Syntax Error/);
    assert.equal(broken.headers['keygate-cost'], '1');
    const refused = await t.post('/v2/graphql', { variables: {} });
    assert.equal(refused.status, 400);
    assert.equal(refused.headers['keygate-cost'], undefined);
  });
});
