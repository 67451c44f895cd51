import assert from 'node:assert/strict';
import { generateSeedRows, SEED_SKUS } from '../../src/seed/seed-data.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { assertProblem } from '../support/problem.ts';

const SEED = generateSeedRows({ environment: 'live' });

interface EffectiveChannel {
  channel: string;
  currency: string;
  prices: Array<{ sku: string; source: string; net: number; gross: number; minQuantity: number }>;
}

describe('customer pricing and stock routes', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  describe('GET /v2/customers/{id}/pricing', () => {
    describe('with a gold customer who has agreements', () => {
      it('responds with the tier, the agreements and effective prices per channel', async () => {
        const res = await t.get('/v2/customers/cus_0003/pricing');
        assert.equal(res.status, 200);
        assert.equal(res.body.customer.tier, 'gold');
        assert.deepEqual(
          res.body.agreements.map((a: { sku: string; channel: string }) => `${a.sku}@${a.channel}`),
          ['KG-00003@B2B_DE', 'KG-00003@WEB_DE', 'KG-00004@B2B_DE', 'KG-00004@WEB_DE'],
        );
        for (const a of res.body.agreements) {
          assert.equal(a.currency, 'EUR');
          assert.equal(a.minQuantity, 1);
          assert.equal(a.isCurrent, true);
          assert.ok(Number.isInteger(a.amount));
        }
        const channels = res.body.effectivePrices as EffectiveChannel[];
        assert.deepEqual(
          channels.map((c) => c.channel),
          ['B2B_DE', 'WEB_CH', 'WEB_DE'],
        );
        const webDe = channels.find((c) => c.channel === 'WEB_DE')!;
        const bySku = new Map(webDe.prices.map((p) => [p.sku, p]));
        assert.equal(bySku.get(SEED_SKUS.tierAndAgreement)?.source, 'agreement');
        assert.equal(bySku.get('KG-00006')?.source, 'tier');
        assert.equal(bySku.has('KG-00001'), false, 'no personal price, not listed');
        const tierSkus = SEED.products
          .map((p, i) => ({ sku: p.sku, i: i + 1 }))
          .filter(({ i }) => i % 3 === 0)
          .map(({ sku }) => sku);
        for (const sku of tierSkus) assert.ok(bySku.has(sku), sku);
        const webCh = channels.find((c) => c.channel === 'WEB_CH')!;
        assert.equal(webCh.currency, 'CHF');
        assert.ok(webCh.prices.every((p) => p.source === 'tier'));
      });
    });
    describe('with an agreement that has a quantity break', () => {
      it('lists both rows and prices quantity 1', async () => {
        const res = await t.get('/v2/customers/cus_0005/pricing');
        const rows = res.body.agreements.filter((a: { sku: string }) => a.sku === SEED_SKUS.quantityBreaks);
        assert.deepEqual(
          rows.map((a: { minQuantity: number }) => a.minQuantity),
          [1, 20],
        );
        const b2b = (res.body.effectivePrices as EffectiveChannel[]).find((c) => c.channel === 'B2B_DE')!;
        const price = b2b.prices.find((p) => p.sku === SEED_SKUS.quantityBreaks);
        assert.equal(price?.minQuantity, 1);
        assert.equal(price?.net, rows[0].amount);
      });
    });
    describe('in pages', () => {
      it('walks every product with a personal price once, by SKU, with the agreements of each page', async () => {
        const whole = await t.get('/v2/customers/cus_0003/pricing?limit=100');
        assert.equal(whole.body.nextCursor, null);
        const skus: string[] = [];
        const agreements: string[] = [];
        let cursor: string | null = null;
        let pages = 0;
        do {
          const res = await t.get(
            `/v2/customers/cus_0003/pricing?limit=2${cursor ? `&cursor=${cursor}` : ''}`,
          );
          assert.equal(res.status, 200);
          const webDe = (res.body.effectivePrices as EffectiveChannel[]).find((c) => c.channel === 'WEB_DE')!;
          assert.ok(webDe.prices.length <= 2);
          skus.push(...webDe.prices.map((p) => p.sku));
          agreements.push(...res.body.agreements.map((a: { priceId: string }) => a.priceId));
          cursor = res.body.nextCursor;
          pages++;
        } while (cursor);
        const wholeDe = (whole.body.effectivePrices as EffectiveChannel[]).find(
          (c) => c.channel === 'WEB_DE',
        )!;
        assert.deepEqual(
          skus,
          wholeDe.prices.map((p) => p.sku),
        );
        assert.deepEqual(
          agreements,
          whole.body.agreements.map((a: { priceId: string }) => a.priceId),
        );
        assert.ok(pages >= Math.ceil(skus.length / 2));
      });
      it('refuses a limit over 100 and a cursor that is not one of ours', async () => {
        assertProblem(await t.get('/v2/customers/cus_0003/pricing?limit=101'), 422, 'VALIDATION_FAILED');
        assertProblem(await t.get('/v2/customers/cus_0003/pricing?limit=0'), 422, 'VALIDATION_FAILED');
        assertProblem(await t.get('/v2/customers/cus_0003/pricing?cursor=nope'), 422, 'INVALID_CURSOR');
      });
    });
    describe('with an unknown customer', () => {
      it('responds 404 CUSTOMER_NOT_FOUND', async () => {
        assertProblem(await t.get('/v2/customers/cus_nope/pricing'), 404, 'CUSTOMER_NOT_FOUND');
      });
    });
  });

  describe('GET /v2/stock/{sku}', () => {
    describe('with a known SKU', () => {
      it('responds with on hand, allocated and available', async () => {
        const low = await t.get(`/v2/stock/${SEED_SKUS.lowStock}`);
        assert.deepEqual(low.body, { sku: SEED_SKUS.lowStock, onHand: 5, allocated: 2, available: 3 });
        const allocated = await t.get(`/v2/stock/${SEED_SKUS.fullyAllocated}`);
        assert.deepEqual(allocated.body, {
          sku: SEED_SKUS.fullyAllocated,
          onHand: 20,
          allocated: 20,
          available: 0,
        });
      });
    });
    describe('with an unknown SKU', () => {
      it('responds 404 PRODUCT_NOT_FOUND', async () => {
        assertProblem(await t.get('/v2/stock/NOPE-1'), 404, 'PRODUCT_NOT_FOUND');
      });
    });
  });
});
