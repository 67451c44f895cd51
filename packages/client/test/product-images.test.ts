import assert from 'node:assert/strict';
import { createKeygateClient } from '../src/index.ts';
import { fakeFetch } from './support/fake-fetch.ts';

const IMAGE = { url: 'https://cdn.example.com/a.webp', alt: 'Front', width: 640, height: 480 };

describe('product images', () => {
  it('types a catalogue product’s images and puts a new list with its Idempotency-Key', async () => {
    const fake = fakeFetch(
      { status: 200, body: { sku: 'KG-00001', images: [IMAGE] } },
      { status: 200, body: { data: { sku: 'KG-00001', images: [IMAGE] } } },
    );
    const client = createKeygateClient({
      baseUrl: 'https://gw.test',
      apiKey: 'kg_live_abc',
      fetch: fake.fetch,
    });
    const set = await client.PUT('/v2/catalog/products/{sku}/images', {
      params: { path: { sku: 'KG-00001' }, header: { 'Idempotency-Key': 'images-1' } },
      body: { images: [IMAGE] },
    });
    assert.deepEqual(set.data?.images, [IMAGE]);
    const [put] = fake.seen;
    assert.equal(put?.method, 'PUT');
    assert.equal(put?.url, 'https://gw.test/v2/catalog/products/KG-00001/images');
    assert.equal(put?.body, JSON.stringify({ images: [IMAGE] }));
    assert.equal(put?.headers.get('idempotency-key'), 'images-1');
    const product = await client.GET('/v2/catalog/products/{sku}', {
      params: { path: { sku: 'KG-00001' }, header: { 'X-Channel': 'WEB_DE' } },
    });
    const width: number | undefined = product.data?.data.images[0]?.width;
    assert.equal(width, 640);
  });

  it('reads a generated image as text', async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="800" height="800"></svg>';
    const fake = fakeFetch({ status: 200, headers: { 'content-type': 'image/svg+xml' }, body: svg });
    const client = createKeygateClient({
      baseUrl: 'https://gw.test',
      apiKey: 'kg_live_abc',
      fetch: fake.fetch,
    });
    const image = await client.GET('/v2/media/products/{sku}/{file}', {
      params: { path: { sku: 'KG-00001', file: 'T.svg' } },
      parseAs: 'text',
    });
    assert.equal(image.data, svg);
    assert.equal(fake.seen[0]?.url, 'https://gw.test/v2/media/products/KG-00001/T.svg');
  });
});
