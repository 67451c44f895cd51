import { storefrontEnv } from '../../../src/lib/env.ts';
import { IMAGE_ROUTE, isMediaPath } from '../../../src/lib/images.ts';

/** Headers of the gateway's answer the browser gets too: caching and type. */
const PASSED_HEADERS = ['content-type', 'cache-control', 'etag', 'last-modified', 'content-length'];

/**
 * Relays product media from the gateway, so pages load images from their own origin (`img-src
 * 'self'`) and the gateway needs neither CORS nor a public route. Only media paths are relayed,
 * only images are answered, and each answer carries a CSP of its own: an SVG opened as a document
 * is sandboxed and runs no script.
 */
export async function GET(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const path = url.pathname.slice(IMAGE_ROUTE.length);
  if (!isMediaPath(path)) return notFound();
  const env = storefrontEnv();
  const headers = new Headers({ Authorization: `Bearer ${env.KEYGATE_API_KEY}` });
  const etag = request.headers.get('if-none-match');
  if (etag) headers.set('If-None-Match', etag);
  let answer: Response;
  try {
    answer = await fetch(new URL(`${path}${url.search}`, env.KEYGATE_BASE_URL), {
      headers,
      redirect: 'error',
    });
  } catch {
    return new Response(null, { status: 502 });
  }
  if (answer.status === 304) return new Response(null, { status: 304, headers: passed(answer) });
  const type = answer.headers.get('content-type') ?? '';
  if (!answer.ok || !type.startsWith('image/')) {
    await answer.body?.cancel();
    return answer.status === 404 ? notFound() : new Response(null, { status: 502 });
  }
  return new Response(answer.body, { status: 200, headers: passed(answer) });
}

function passed(answer: Response): Headers {
  const out = new Headers({
    'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
  });
  for (const name of PASSED_HEADERS) {
    const value = answer.headers.get(name);
    if (value) out.set(name, value);
  }
  if (!out.has('cache-control')) out.set('Cache-Control', 'public, max-age=3600');
  return out;
}

function notFound(): Response {
  return new Response(null, { status: 404 });
}
