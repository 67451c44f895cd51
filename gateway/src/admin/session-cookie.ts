/** The admin session cookie: its name and the only path it is sent on. */
export const SESSION_COOKIE = 'keygate_admin';
export const SESSION_COOKIE_PATH = '/admin';

/** The `keygate_admin` value from a Cookie header (the first one when repeated), or null. */
export function readSessionCookie(header: string | undefined): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== SESSION_COOKIE) continue;
    const value = part.slice(eq + 1).trim();
    return value.startsWith('"') && value.endsWith('"') && value.length >= 2 ? value.slice(1, -1) : value;
  }
  return null;
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
