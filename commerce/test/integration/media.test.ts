import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../support/app.ts';
import { assertProblem } from '../support/problem.ts';

const WEB_DE = { headers: { 'X-Channel': 'WEB_DE' } };

/** The body of an SVG answer as text (supertest buffers image/* as a Buffer). */
function svgText(body: unknown): string {
  return Buffer.isBuffer(body) ? body.toString('utf8') : String(body);
}

describe('GET /v2/media/products/{sku}/{initials}.svg', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  /** The URL the catalogue names for KG-00002's generated image. */
  async function imageUrl(): Promise<string> {
    const res = await t.get('/v2/catalog/products/KG-00002', WEB_DE);
    assert.equal(res.status, 200, res.text);
    return res.body.data.images[0].url as string;
  }

  it('answers the image the catalogue names: a safe SVG of the declared size, cached a year', async () => {
    const url = await imageUrl();
    const res = await t.get(url);
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], 'image/svg+xml');
    assert.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.match(String(res.headers['content-security-policy']), /default-src 'none'/);
    assert.match(String(res.headers.etag), /^"[A-Za-z0-9_-]{27}"$/, 'a strong ETag');
    const svg = svgText(res.body);
    assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="800" height="800"/);
    assert.match(svg, />RO<\/text>/, 'the initials of Rustic Oak Planter');
    assert.doesNotMatch(svg, /<script|<foreignObject|\son[a-z]+=|href=|javascript:/i);
    assert.equal(Number(res.headers['content-length']), Buffer.byteLength(svg));
  });

  it('answers the same bytes and ETag every time, and 304 without a body to a matching If-None-Match', async () => {
    const url = await imageUrl();
    const first = await t.get(url);
    const second = await t.get(url);
    assert.equal(svgText(second.body), svgText(first.body));
    assert.equal(second.headers.etag, first.headers.etag);
    const etag = String(first.headers.etag);
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const res = await t.get(url, { headers: { 'If-None-Match': ifNoneMatch } });
      assert.equal(res.status, 304, ifNoneMatch);
      assert.equal(res.text ?? '', '');
      assert.equal(res.headers.etag, etag);
      assert.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable');
    }
    const stale = await t.get(url, { headers: { 'If-None-Match': '"not-this-one"' } });
    assert.equal(stale.status, 200);
  });

  it('draws different SKUs differently and escapes the SKU it names', async () => {
    const a = await t.get('/v2/media/products/KG-00001/SB.svg');
    const b = await t.get('/v2/media/products/KG-00003/SB.svg');
    assert.equal(a.status, 200);
    assert.notEqual(a.headers.etag, b.headers.etag);
    assert.match(svgText(a.body), /<title>KG-00001<\/title>/);
  });

  it('needs a gateway identity with article:r', async () => {
    const url = await imageUrl();
    assertProblem(await t.get(url, { anonymous: true }), 401, 'IDENTITY_MISSING');
    assertProblem(await t.get(url, { scopes: ['order:r'] }), 403, 'INSUFFICIENT_SCOPE');
  });

  for (const path of [
    '/v2/media/products/KG-00002/RO.png',
    '/v2/media/products/KG-00002/abc.svg',
    '/v2/media/products/KG-00002/%3Cscript%3E.svg',
    '/v2/media/products/KG%3C00002/RO.svg',
    '/v2/media/products/KG-00002',
  ]) {
    it(`answers 404 ROUTE_NOT_FOUND for ${path}`, async () => {
      assertProblem(await t.get(path), 404, 'ROUTE_NOT_FOUND');
    });
  }
});
