import assert from 'node:assert/strict';
import { MAX_PRODUCT_IMAGES } from '@keygate/contracts/commerce';
import { generateSeedRows } from '../../src/seed/seed-data.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { readEvents } from '../support/events.ts';
import { assertProblem } from '../support/problem.ts';

const WEB_DE = { headers: { 'X-Channel': 'WEB_DE' } };
const SEED = generateSeedRows({ environment: 'live' });
const SKU = 'KG-00002';
const NAME = SEED.products.find((p) => p.sku === SKU)?.name ?? '';

const PHOTO = {
  url: 'https://cdn.example.com/kg-00002/front.webp',
  alt: 'The lamp from the front',
  width: 1200,
  height: 900,
};
const SIDE = { url: '/v2/media/products/KG-00002/side.svg', alt: '', width: 640, height: 640 };

const key = (value: string) => ({ headers: { 'Idempotency-Key': value } });

function storedImages(t: TestApp): unknown {
  const row = t.db.sqlite.prepare('SELECT images FROM products WHERE sku = ?').get(SKU) as {
    images: string | null;
  };
  return row.images === null ? null : JSON.parse(row.images);
}

async function productImages(t: TestApp): Promise<unknown> {
  const res = await t.get(`/v2/catalog/products/${SKU}`, WEB_DE);
  assert.equal(res.status, 200, res.text);
  return res.body.data.images;
}

async function graphqlImages(t: TestApp): Promise<unknown> {
  const res = await t.post(
    '/v2/graphql',
    { query: '{ products(channel: WEB_DE, first: 2) { sku images { url alt width height } } }' },
    WEB_DE,
  );
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.errors, undefined, JSON.stringify(res.body.errors));
  return res.body.data.products.find((p: { sku: string }) => p.sku === SKU)?.images;
}

describe('product images', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp();
  });
  afterEach(() => t.close());

  describe('a seeded product', () => {
    it('shows one generated image named by its SKU and initials, described by its name', async () => {
      const generated = [{ url: '/v2/media/products/KG-00002/RO.svg', alt: NAME, width: 800, height: 800 }];
      assert.equal(NAME, 'Rustic Oak Planter', 'the seed name the initials come from');
      assert.deepEqual(await productImages(t), generated);
      const page = await t.get('/v2/catalog/products?limit=3', WEB_DE);
      assert.deepEqual(page.body.data[1].images, generated);
      assert.deepEqual(await graphqlImages(t), generated);
      assert.equal(storedImages(t), null, 'the seed stores no image rows');
    });
  });

  describe('PUT /v2/catalog/products/{sku}/images', () => {
    it('replaces the list in order, and the catalogue and GraphQL show it at once', async () => {
      // Read first, so the answers are cached before the write.
      await productImages(t);
      await graphqlImages(t);
      const res = await t.put(`/v2/catalog/products/${SKU}/images`, { images: [PHOTO, SIDE] });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body, { sku: SKU, images: [PHOTO, SIDE] });
      assert.deepEqual(await productImages(t), [PHOTO, SIDE]);
      assert.deepEqual(await graphqlImages(t), [PHOTO, SIDE]);
      const page = await t.get('/v2/catalog/products?limit=3', WEB_DE);
      assert.deepEqual(page.body.data[1].images, [PHOTO, SIDE]);
      // The other products keep their generated image.
      assert.match(page.body.data[0].images[0].url, /^\/v2\/media\/products\/KG-00001\/[A-Z0-9]{1,2}\.svg$/);
    });

    it('takes an empty list: the product then has no image', async () => {
      const res = await t.put(`/v2/catalog/products/${SKU}/images`, { images: [] });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(await productImages(t), []);
    });

    it('records product.updated with the old and new lists, and nothing for the same list again', async () => {
      await t.put(`/v2/catalog/products/${SKU}/images`, { images: [PHOTO] });
      await t.put(`/v2/catalog/products/${SKU}/images`, { images: [PHOTO] });
      const events = readEvents(t.db, 'product.updated');
      assert.equal(events.length, 1);
      const [event] = events;
      assert.equal(event?.data.sku, SKU);
      assert.equal(event?.data.productId, 'prd_00002');
      assert.deepEqual(event?.data.changed, ['images']);
      assert.deepEqual(event?.data.old.images, [
        { url: '/v2/media/products/KG-00002/RO.svg', alt: NAME, width: 800, height: 800 },
      ]);
      assert.deepEqual(event?.data.new.images, [PHOTO]);
    });

    it('answers 404 PRODUCT_NOT_FOUND for an unknown SKU', async () => {
      const res = await t.put('/v2/catalog/products/NOPE-1/images', { images: [PHOTO] });
      assertProblem(res, 404, 'PRODUCT_NOT_FOUND');
    });

    it('needs article:rw (403 with article:r)', async () => {
      const res = await t.put(
        `/v2/catalog/products/${SKU}/images`,
        { images: [PHOTO] },
        { scopes: ['article:r'] },
      );
      assertProblem(res, 403, 'INSUFFICIENT_SCOPE');
      assert.equal(storedImages(t), null);
    });

    describe('with a bad body', () => {
      const cases: Array<[string, unknown, string]> = [
        ['an http URL', { images: [{ ...PHOTO, url: 'http://cdn.example.com/a.webp' }] }, '/images/0/url'],
        ['a javascript: URL', { images: [{ ...PHOTO, url: 'javascript:alert(1)' }] }, '/images/0/url'],
        ['a data: URL', { images: [{ ...PHOTO, url: 'data:image/svg+xml,<svg/>' }] }, '/images/0/url'],
        ['a protocol-relative URL', { images: [{ ...PHOTO, url: '//evil.example/a.png' }] }, '/images/0/url'],
        [
          'a root-relative path outside /v2/media/',
          { images: [{ ...PHOTO, url: '/admin/x.svg' }] },
          '/images/0/url',
        ],
        [
          'a media path climbing out',
          { images: [{ ...PHOTO, url: '/v2/media/../auth/keys' }] },
          '/images/0/url',
        ],
        [
          'credentials in the URL',
          { images: [{ ...PHOTO, url: 'https://u:p@cdn.example.com/a.png' }] },
          '/images/0/url',
        ],
        ['no alt', { images: [{ url: PHOTO.url, width: 1, height: 1 }] }, '/images/0/alt'],
        ['a control character in alt', { images: [{ ...PHOTO, alt: 'a\u0000b' }] }, '/images/0/alt'],
        ['a zero width', { images: [{ ...PHOTO, width: 0 }] }, '/images/0/width'],
        ['a fractional height', { images: [{ ...PHOTO, height: 1.5 }] }, '/images/0/height'],
        ['a string width', { images: [{ ...PHOTO, width: '800' }] }, '/images/0/width'],
        ['an unknown field', { images: [{ ...PHOTO, title: 'x' }] }, '/images/0'],
        [
          'too many images',
          { images: Array.from({ length: MAX_PRODUCT_IMAGES + 1 }, () => PHOTO) },
          '/images',
        ],
        ['a bare array', [PHOTO], ''],
      ];
      for (const [what, body, pointer] of cases) {
        it(`answers 422 VALIDATION_FAILED for ${what} and changes nothing`, async () => {
          const res = await t.put(`/v2/catalog/products/${SKU}/images`, body);
          const problem = assertProblem(res, 422, 'VALIDATION_FAILED');
          const errors = problem.errors as Array<{ pointer: string }>;
          assert.ok(
            errors.some((e) => e.pointer === pointer),
            `${pointer} in ${JSON.stringify(errors)}`,
          );
          assert.equal(storedImages(t), null);
          assert.equal(readEvents(t.db, 'product.updated').length, 0);
        });
      }

      it('answers 400 MALFORMED_JSON for a body that is not JSON, changing nothing', async () => {
        const res = await t.put(`/v2/catalog/products/${SKU}/images`, '{"images": [');
        assertProblem(res, 400, 'MALFORMED_JSON');
        assert.equal(storedImages(t), null);
      });
    });

    describe('with an Idempotency-Key', () => {
      it('replays the first answer to a retry, even after another change came between', async () => {
        const first = await t.put(`/v2/catalog/products/${SKU}/images`, { images: [PHOTO] }, key('img-1'));
        assert.equal(first.status, 200, first.text);
        await t.put(`/v2/catalog/products/${SKU}/images`, { images: [SIDE] });
        const again = await t.put(`/v2/catalog/products/${SKU}/images`, { images: [PHOTO] }, key('img-1'));
        assert.equal(again.status, 200);
        assert.equal(again.headers['idempotent-replayed'], 'true');
        assert.deepEqual(again.body, first.body);
        assert.deepEqual(await productImages(t), [SIDE], 'the retry did not write over the later change');
        assert.equal(readEvents(t.db, 'product.updated').length, 2);
      });

      it('refuses the same key with another body (422 IDEMPOTENCY_KEY_REUSED), changing nothing', async () => {
        await t.put(`/v2/catalog/products/${SKU}/images`, { images: [PHOTO] }, key('img-2'));
        const other = await t.put(`/v2/catalog/products/${SKU}/images`, { images: [SIDE] }, key('img-2'));
        assertProblem(other, 422, 'IDEMPOTENCY_KEY_REUSED');
        assert.deepEqual(await productImages(t), [PHOTO]);
      });
    });
  });
});
