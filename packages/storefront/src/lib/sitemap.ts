/**
 * Sitemaps of the catalogue: `/sitemap.xml` is a sitemap index naming one or more files per
 * channel, each listing at most SITEMAP_FILE_SIZE products (the protocol allows 50,000; smaller
 * files are cheaper to build and to re-crawl). The catalogue is read in API pages of
 * SITEMAP_PAGE_SIZE, so a file is named by the cursor its first page starts at.
 */
export const SITEMAP_PAGE_SIZE = 100;
export const SITEMAP_FILE_SIZE = 5_000;

/** One page of a channel's catalogue: its SKUs and the cursor of the next page. */
export type CataloguePage = { skus: string[]; nextCursor: string | null };
export type FetchCataloguePage = (cursor: string | null) => Promise<CataloguePage>;

/**
 * The cursor each sitemap file of a channel starts at, the first file's being null. `fileSize`
 * is a multiple of the page size, so files start where API pages do.
 */
export async function sitemapFileStarts(
  fetchPage: FetchCataloguePage,
  fileSize = SITEMAP_FILE_SIZE,
): Promise<Array<string | null>> {
  const starts: Array<string | null> = [null];
  let cursor: string | null = null;
  let count = 0;
  for (;;) {
    const page = await fetchPage(cursor);
    count += page.skus.length;
    if (!page.nextCursor) return starts;
    if (count % fileSize === 0) starts.push(page.nextCursor);
    cursor = page.nextCursor;
  }
}

/** The SKUs of the sitemap file starting at `from`: pages from there until the file is full. */
export async function sitemapFileSkus(
  fetchPage: FetchCataloguePage,
  from: string | null,
  fileSize = SITEMAP_FILE_SIZE,
): Promise<string[]> {
  const skus: string[] = [];
  let cursor = from;
  do {
    const page = await fetchPage(cursor);
    skus.push(...page.skus);
    cursor = page.nextCursor;
  } while (cursor && skus.length < fileSize);
  return skus;
}

const XML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => XML_ESCAPES[c] ?? c);
}

const SITEMAP_NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';

/** A `<urlset>` of absolute page URLs. */
export function renderUrlSet(urls: readonly string[]): string {
  const entries = urls.map((url) => `<url><loc>${escapeXml(url)}</loc></url>`).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="${SITEMAP_NS}">\n${entries}\n</urlset>\n`;
}

/** A `<sitemapindex>` of absolute sitemap URLs. */
export function renderSitemapIndex(urls: readonly string[]): string {
  const entries = urls.map((url) => `<sitemap><loc>${escapeXml(url)}</loc></sitemap>`).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="${SITEMAP_NS}">\n${entries}\n</sitemapindex>\n`;
}

/** The path of a channel's sitemap file starting at `from`. */
export function sitemapFilePath(channel: string, from: string | null): string {
  return `/sitemaps/${channel}.xml${from ? `?${new URLSearchParams({ from })}` : ''}`;
}
