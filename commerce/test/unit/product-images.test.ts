import assert from 'node:assert/strict';
import { isImageUrl, SetProductImagesSchema } from '@keygate/contracts/commerce';
import { generatedImageOf, imagesOf, initialsOf } from '../../src/catalog/product-images.ts';
import { INITIALS_PATTERN, renderProductSvg, SKU_PATTERN } from '../../src/media/product-svg.ts';
import { generateSeedRows } from '../../src/seed/seed-data.ts';

describe('product images (unit)', () => {
  describe('initialsOf', () => {
    const cases: Array<[string, string]> = [
      ['Rustic Oak Planter', 'RO'],
      ['heavy-duty wool tray', 'HW'],
      ['Ölkanne aus Ton', 'OA'],
      ['  (Oak)\tdesk', 'OD'],
      ['7 Seas', '7S'],
      ['Lamp', 'L'],
      ['日本 茶', 'P'],
      ['', 'P'],
    ];
    for (const [name, initials] of cases) {
      it(`draws ${initials} for ${JSON.stringify(name)}`, () => assert.equal(initialsOf(name), initials));
    }
  });

  describe('a generated image', () => {
    const seed = generateSeedRows({ environment: 'test', products: 200 }).products;

    it('is one every seeded product shows, at a URL the API accepts back and the media route serves', () => {
      for (const product of seed) {
        const [image] = imagesOf({ ...product, images: null });
        assert.ok(image, product.sku);
        assert.ok(isImageUrl(image.url), image.url);
        assert.ok(SetProductImagesSchema.safeParse({ images: [image] }).success, image.url);
        const [, , , , sku, file] = image.url.split('/');
        assert.match(decodeURIComponent(String(sku)), SKU_PATTERN);
        assert.match(String(file).replace(/\.svg$/, ''), INITIALS_PATTERN);
      }
    });

    it('gives way to the images set, an empty list included', () => {
      const product = { sku: 'KG-1', name: 'Lamp', images: [] };
      assert.deepEqual(imagesOf(product), []);
      assert.equal(generatedImageOf(product).url, '/v2/media/products/KG-1/L.svg');
    });

    it('renders an SVG that escapes the SKU and holds nothing that runs or loads', () => {
      const svg = renderProductSvg('a"<script>&', 'AB', 800);
      assert.match(svg, /<title>a&#34;&#60;script&#62;&#38;<\/title>/);
      assert.doesNotMatch(svg, /<script|href|javascript:|\son[a-z]+=/i);
      assert.equal(renderProductSvg('KG-00001', 'AB', 800), renderProductSvg('KG-00001', 'AB', 800));
      assert.notEqual(renderProductSvg('KG-00001', 'AB', 800), renderProductSvg('KG-00002', 'AB', 800));
    });
  });

  describe('isImageUrl', () => {
    const accepted = [
      'https://cdn.example.com/a.webp',
      'https://cdn.example.com:8443/p/a.png?w=800',
      '/v2/media/products/KG-00001/RO.svg',
      '/v2/media/products/K%20G/RO.svg',
    ];
    const refused = [
      'http://cdn.example.com/a.webp',
      'HTTPS://cdn.example.com/a.webp',
      'https://user:pass@cdn.example.com/a.webp',
      'https:/cdn.example.com',
      '//cdn.example.com/a.webp',
      'javascript:alert(1)',
      'data:image/png;base64,AAAA',
      '/v2/media/../auth/keys',
      '/v2/media/./a.svg',
      '/v2/media//a.svg',
      '/v2/media/a.svg?x=1',
      '/v2/media/',
      '/media/a.svg',
      'a.svg',
    ];
    for (const url of accepted) it(`accepts ${url}`, () => assert.equal(isImageUrl(url), true));
    for (const url of refused) it(`refuses ${url}`, () => assert.equal(isImageUrl(url), false));
  });
});
