import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../support/app.ts';

/** The same query text sent again must behave exactly as the first time (parsed documents are kept). */
describe('GraphQL repeated query texts', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  const query = (source: string, variables?: Record<string, unknown>) =>
    t.post(
      '/v2/graphql',
      { query: source, variables },
      { headers: { Accept: 'application/graphql-response+json' } },
    );

  it('refuses an invalid query every time it is sent', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await query('{ products(channel: WEB_DE) { nope } }');
      assert.equal(res.status, 400, res.text);
      assert.match(res.body.errors[0].message, /nope/);
    }
  });

  it('refuses a query that does not parse every time it is sent', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await query('{ products(channel: WEB_DE) { sku }');
      assert.equal(res.status, 400, res.text);
      assert.match(res.body.errors[0].message, /Syntax Error/);
    }
  });

  it('runs one query text with other variables and sees a price change at once', async () => {
    const text =
      'query ($channel: Channel!) { products(channel: $channel, first: 1) { sku price { amount } } }';
    const de = await query(text, { channel: 'WEB_DE' });
    const ch = await query(text, { channel: 'WEB_CH' });
    assert.equal(de.body.data.products[0].sku, 'KG-00001');
    assert.notEqual(de.body.data.products[0].price.amount, ch.body.data.products[0].price.amount);
    t.db.sqlite
      .prepare("UPDATE prices SET amount = 12345 WHERE product_id = 'prd_00001' AND channel_code = 'WEB_CH'")
      .run();
    const again = await query(text, { channel: 'WEB_CH' });
    assert.equal(again.body.data.products[0].price.amount, 12345);
  });
});
