/** The admin session cookie's name. */
export const SESSION_COOKIE = 'keygate_admin';
/** The only path the browser sends the session cookie on (the pages and their API). */
export const SESSION_COOKIE_PATH = '/admin';

/**
 * The `keygate_admin` value from a Cookie header, or null when absent or sent more than once:
 * two values mean a second cookie was planted (e.g. from a sibling host with a longer Path), and
 * picking either could swap the administrator into someone else's session.
 */
export function readSessionCookie(header: string | undefined): string | null {
  if (!header) return null;
  const values: string[] = [];
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== SESSION_COOKIE) continue;
    const value = part.slice(eq + 1).trim();
    values.push(
      value.startsWith('"') && value.endsWith('"') && value.length >= 2 ? value.slice(1, -1) : value,
    );
  }
  return values.length === 1 ? (values[0] ?? null) : null;
}

function attributes(secure: boolean): string {
  return `Path=${SESSION_COOKIE_PATH}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

/** Set-Cookie for a new session: a browser-session cookie (no Max-Age; the server ends it). */
export function formatSessionCookie(token: string, secure: boolean): string {
  return `${SESSION_COOKIE}=${token}; ${attributes(secure)}`;
}

/** Set-Cookie that makes the browser drop the session cookie. */
export function formatClearedSessionCookie(secure: boolean): string {
  return `${SESSION_COOKIE}=; ${attributes(secure)}; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT`;
}

/** Whether the cookie gets `Secure`: always, never, or (`auto`) when the request came over HTTPS. */
export function isSecureCookie(setting: 'auto' | 'true' | 'false', scheme: 'http' | 'https'): boolean {
  return setting === 'true' || (setting === 'auto' && scheme === 'https');
}
