import assert from 'node:assert/strict';
import {
  type CataloguePage,
  renderSitemapIndex,
  renderUrlSet,
  sitemapFilePath,
  sitemapFileSkus,
  sitemapFileStarts,
} from '../src/lib/sitemap.ts';

/** A catalogue of `total` SKUs served in pages of `size`, with cursors `c<offset>`, counting calls. */
function catalogue(total: number, size: number) {
  const asked: Array<string | null> = [];
  const fetchPage = async (cursor: string | null): Promise<CataloguePage> => {
    asked.push(cursor);
    const from = cursor ? Number(cursor.slice(1)) : 0;
    const skus = Array.from({ length: Math.min(size, total - from) }, (_, i) => `KG-${from + i}`);
    return { skus, nextCursor: from + size < total ? `c${from + size}` : null };
  };
  return { fetchPage, asked };
}

describe('sitemap files', () => {
  it('starts a new file every fileSize products and lists every product exactly once', async () => {
    const { fetchPage } = catalogue(1_050, 100);
    const starts = await sitemapFileStarts(fetchPage, 500);
    assert.deepEqual(starts, [null, 'c500', 'c1000']);
    const files = await Promise.all(starts.map((from) => sitemapFileSkus(fetchPage, from, 500)));
    assert.deepEqual(
      files.map((skus) => skus.length),
      [500, 500, 50],
    );
    assert.equal(new Set(files.flat()).size, 1_050);
  });
  it('keeps a catalogue that fills its file exactly in one file', async () => {
    const { fetchPage } = catalogue(500, 100);
    assert.deepEqual(await sitemapFileStarts(fetchPage, 500), [null]);
  });
  it('has one empty file for an empty catalogue', async () => {
    const { fetchPage } = catalogue(0, 100);
    assert.deepEqual(await sitemapFileStarts(fetchPage, 500), [null]);
    assert.deepEqual(await sitemapFileSkus(fetchPage, null, 500), []);
  });
  it('names later files by their cursor', () => {
    assert.equal(sitemapFilePath('WEB_DE', null), '/sitemaps/WEB_DE.xml');
    assert.equal(sitemapFilePath('WEB_DE', 'a+b/c='), '/sitemaps/WEB_DE.xml?from=a%2Bb%2Fc%3D');
  });
});

describe('sitemap XML', () => {
  it('escapes URLs and names the sitemap namespace', () => {
    const xml = renderUrlSet(['https://shop.example.com/WEB_DE/products/A&B']);
    assert.match(
      xml,
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/,
    );
    assert.match(xml, /<loc>https:\/\/shop.example.com\/WEB_DE\/products\/A&amp;B<\/loc>/);
    assert.match(
      renderSitemapIndex(['https://s.example/sitemaps/X.xml?from=a&b']),
      /<sitemap><loc>[^<]*from=a&amp;b<\/loc><\/sitemap>/,
    );
  });
});
