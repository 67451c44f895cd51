import assert from 'node:assert/strict';
import { json, type System, startSystem } from '../support/system.ts';

const WEB_DE = { headers: { 'X-Channel': 'WEB_DE' } };
const PHOTO = {
  url: 'https://cdn.example.com/kg/front.webp',
  alt: 'From the front',
  width: 1200,
  height: 900,
};

interface Image {
  url: string;
  alt: string;
  width: number;
  height: number;
}

const put = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: 'PUT',
  headers: { 'Content-Type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

describe('product images through the gateway', function () {
  this.timeout(120_000);
  let system: System;
  let editor: string;
  let reader: string;

  before(async () => {
    system = await startSystem();
    editor = (await system.createKey({ name: 'editor', env: 'live', scopes: ['article:rw'] })).secret;
    reader = (await system.createKey({ name: 'reader', env: 'live', scopes: ['article:r'] })).secret;
  });
  after(async () => {
    await system?.stop();
  });

  async function imagesOf(sku: string): Promise<Image[]> {
    const res = await system.call(reader, `/v2/catalog/products/${sku}`, WEB_DE);
    assert.equal(res.status, 200, await res.clone().text());
    return (await json<{ data: { images: Image[] } }>(res)).data.images;
  }

  it('serves the generated image the catalogue names at its root-relative URL, cacheable for good', async () => {
    const [image] = await imagesOf('KG-00003');
    assert.ok(image);
    assert.match(image.url, /^\/v2\/media\/products\/KG-00003\/[A-Z0-9]{1,2}\.svg$/);
    assert.equal(image.width, 800);
    const res = await system.call(reader, image.url);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'image/svg+xml');
    assert.equal(res.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    const etag = res.headers.get('etag');
    assert.match(String(etag), /^"[^"]+"$/);
    assert.match(await res.text(), /^<svg [^>]*width="800" height="800"/);
    const again = await system.call(reader, image.url, { headers: { 'If-None-Match': String(etag) } });
    assert.equal(again.status, 304);
    assert.equal(await again.text(), '');
  });

  it('needs a key for the image, as for every route (no public route through the gateway)', async () => {
    const [image] = await imagesOf('KG-00003');
    const res = await system.call(null, String(image?.url));
    assert.equal(res.status, 401);
  });

  it('sets images with article:rw; the next read shows them, and a reader may not set them', async () => {
    const before = await imagesOf('KG-00004');
    const refused = await system.call(
      reader,
      '/v2/catalog/products/KG-00004/images',
      put({ images: [PHOTO] }),
    );
    assert.equal(refused.status, 403);
    assert.deepEqual(await imagesOf('KG-00004'), before);
    const set = await system.call(
      editor,
      '/v2/catalog/products/KG-00004/images',
      put({ images: [PHOTO, before[0]] }, { 'Idempotency-Key': 'e2e-images-1' }),
    );
    assert.equal(set.status, 200, await set.clone().text());
    assert.deepEqual(await imagesOf('KG-00004'), [PHOTO, before[0]]);
    const replay = await system.call(
      editor,
      '/v2/catalog/products/KG-00004/images',
      put({ images: [PHOTO, before[0]] }, { 'Idempotency-Key': 'e2e-images-1' }),
    );
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
  });

  it('answers a bad list 422 problem+json and keeps the images', async () => {
    const before = await imagesOf('KG-00005');
    const res = await system.call(
      editor,
      '/v2/catalog/products/KG-00005/images',
      put({ images: [{ ...PHOTO, url: 'javascript:alert(1)' }] }),
    );
    assert.equal(res.status, 422);
    assert.match(String(res.headers.get('content-type')), /^application\/problem\+json/);
    assert.equal((await json(res)).code, 'VALIDATION_FAILED');
    assert.deepEqual(await imagesOf('KG-00005'), before);
  });
});
