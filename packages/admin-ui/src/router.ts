import { useEffect, useState } from 'preact/hooks';

/** Where the gateway serves the UI; every route below is relative to it. */
export const BASE = '/admin';
const CHANGE_EVENT = 'keygate:navigate';

/** The current route: the path below /admin, always starting with '/'. */
export function currentRoute(): string {
  const path = window.location.pathname;
  const below = path.startsWith(BASE) ? path.slice(BASE.length) : path;
  return below === '' ? '/' : below;
}

/** Goes to a route without reloading the page (history routing). */
export function navigate(route: string, options: { replace?: boolean } = {}): void {
  const url = `${BASE}${route}`;
  if (options.replace) window.history.replaceState(null, '', url);
  else window.history.pushState(null, '', url);
  window.dispatchEvent(new Event(CHANGE_EVENT));
}

/** The current route, updated on navigation and on the browser's back/forward. */
export function useRoute(): string {
  const [route, setRoute] = useState(currentRoute);
  useEffect(() => {
    const update = () => setRoute(currentRoute());
    window.addEventListener('popstate', update);
    window.addEventListener(CHANGE_EVENT, update);
    return () => {
      window.removeEventListener('popstate', update);
      window.removeEventListener(CHANGE_EVENT, update);
    };
  }, []);
  return route;
}

/** A matched route: which page and its parameters. */
export type Match =
  | { page: 'keys' }
  | { page: 'create' }
  | { page: 'key'; id: string }
  | { page: 'identity'; id: string }
  | { page: 'activity' }
  | { page: 'not-found' };

/** Maps a route to a page. */
export function matchRoute(route: string): Match {
  const path = route.replace(/\/+$/, '') || '/';
  if (path === '/' || path === '/keys') return { page: 'keys' };
  if (path === '/keys/new') return { page: 'create' };
  if (path === '/activity') return { page: 'activity' };
  const key = /^\/keys\/([A-Za-z0-9_-]+)$/.exec(path);
  if (key?.[1]) return { page: 'key', id: key[1] };
  const identity = /^\/identities\/([A-Za-z0-9_-]+)$/.exec(path);
  if (identity?.[1]) return { page: 'identity', id: identity[1] };
  return { page: 'not-found' };
}
