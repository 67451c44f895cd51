import { attempt } from '../../src/lib/api.ts';
import { listChannels } from '../../src/lib/catalog.ts';
import { fetchCataloguePage } from '../../src/lib/catalogue-walk.ts';
import { requestOrigin } from '../../src/lib/origin.ts';
import { renderSitemapIndex, sitemapFilePath, sitemapFileStarts } from '../../src/lib/sitemap.ts';

export const dynamic = 'force-dynamic';

/** The sitemap index: every channel's sitemap files (one per SITEMAP_FILE_SIZE products). */
export async function GET(): Promise<Response> {
  const origin = await requestOrigin();
  const outcome = await attempt(async () => {
    const paths: string[] = [];
    for (const channel of await listChannels()) {
      const starts = await sitemapFileStarts((cursor) => fetchCataloguePage(channel.code, cursor));
      paths.push(...starts.map((from) => sitemapFilePath(channel.code, from)));
    }
    return paths;
  });
  // A crawler retries a 503 later; an empty index would tell it the shop has no pages.
  if (!outcome.ok) return new Response(null, { status: 503, headers: { 'Retry-After': '60' } });
  return xml(renderSitemapIndex(outcome.data.map((path) => `${origin}${path}`)));
}

function xml(body: string): Response {
  return new Response(body, { headers: { 'Content-Type': 'application/xml; charset=utf-8' } });
}
