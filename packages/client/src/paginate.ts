import type { Client, MaybeOptionalInit } from 'openapi-fetch';
import { problemErrorOf } from './problem.ts';
import type { paths } from './schema.d.ts';

type GetOf<P extends keyof paths> = paths[P] extends { get: infer Operation } ? Operation : never;
type PageOfPath<P extends keyof paths> =
  GetOf<P> extends { responses: { 200: { content: { 'application/json': infer Page } } } } ? Page : never;
type QueryOf<P extends keyof paths> =
  GetOf<P> extends { parameters: { query?: infer Query } } ? Query : never;

/** The paths whose GET is cursor-paged: a `cursor` query parameter, and a `nextCursor` in each page. */
export type PagedPath = {
  [P in keyof paths]: [PageOfPath<P>] extends [never]
    ? never
    : PageOfPath<P> extends { nextCursor: string | null }
      ? 'cursor' extends keyof NonNullable<QueryOf<P>>
        ? P
        : never
      : never;
}[keyof paths];

/** One page of a paged path, as its GET answers it. */
export type PageOf<P extends PagedPath> = PageOfPath<P>;

/**
 * What `paginate` yields for a path: the entries of the page's `data` or `items` list, or, for a
 * page made of several lists (customer pricing: agreements and prices per channel), the page.
 */
export type PageItem<P extends PagedPath> =
  PageOf<P> extends { data: (infer Item)[] }
    ? Item
    : PageOf<P> extends { items: (infer Item)[] }
      ? Item
      : PageOf<P>;

/** The request options of a paged path's GET (`params`, `headers`, `signal`, …), as `client.GET` takes them. */
export type PaginateInit<P extends PagedPath> = MaybeOptionalInit<paths[P], 'get'>;

/** `client.paginate`: an async iterable over every item of a paged list, page after page. */
export type Paginate = <P extends PagedPath>(
  path: P,
  init: PaginateInit<P>,
) => AsyncGenerator<PageItem<P>, void>;

type Page = { nextCursor?: string | null; data?: unknown; items?: unknown };
type SendGet = (
  path: string,
  init: unknown,
) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

/** The entries a page contributes: its `data` or `items` list, else the page itself. */
function itemsOf(page: Page): unknown[] {
  if (Array.isArray(page.data)) return page.data;
  if (Array.isArray(page.items)) return page.items;
  return [page];
}

/**
 * Fetches one page after another with the `nextCursor` of the previous one until a page has none,
 * yielding each page's entries. Each page is one `client.GET`, so the client's retries apply to
 * it; an error answer is thrown as `KeygateProblemError` (`KeygateRateLimitError` for a 429). Nothing is fetched before the caller
 * asks for the next entry, so leaving the loop early fetches no further page.
 */
async function* walkPages(client: Client<paths>, path: string, init: unknown): AsyncGenerator<unknown, void> {
  const base = (init ?? {}) as { params?: { query?: Record<string, unknown> } };
  let cursor = base.params?.query?.cursor as string | undefined;
  const seen = new Set<string>(cursor === undefined ? [] : [cursor]);
  for (;;) {
    const params = { ...base.params, query: { ...base.params?.query, cursor } };
    const { data, error, response } = await (client.GET as unknown as SendGet)(path, { ...base, params });
    if (!response.ok) throw problemErrorOf(error, response);
    const page = data as Page;
    yield* itemsOf(page);
    const next = page.nextCursor ?? undefined;
    if (next === undefined) return;
    // A service answering a cursor it already gave would loop forever and repeat entries.
    if (seen.has(next)) throw new Error(`keygate client: ${path} returned the cursor ${next} twice`);
    seen.add(next);
    cursor = next;
  }
}

/** Builds `client.paginate` over a client's GET. */
export function createPaginator(client: Client<paths>): Paginate {
  return ((path: string, init: unknown) => walkPages(client, path, init)) as Paginate;
}
