import type { KeygateClient } from '@keygate/client';

/**
 * Writes the activity of one key (created, scopes changed, rotated, secret closed, revoked, …) as
 * JSON lines, at most `max` of them. `paginate` fetches page after page as the loop asks for more;
 * leaving the loop early fetches no further page.
 */
export async function exportKeyActivity(
  admin: KeygateClient,
  keyId: string,
  write: (line: string) => void,
  max = Number.POSITIVE_INFINITY,
) {
  let written = 0;
  const entries = admin.paginate('/v2/auth/keys/{id}/activity', {
    params: { path: { id: keyId }, query: { limit: 100 } },
  });
  for await (const entry of entries) {
    write(JSON.stringify({ at: entry.at, action: entry.action, actor: entry.actor }));
    if (++written >= max) break;
  }
  return written;
}
