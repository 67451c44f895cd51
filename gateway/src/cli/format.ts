import type { PublicKey } from '../keys/public-key.ts';

/** Left-aligned columns separated by two spaces. */
export function formatTable(header: string[], rows: string[][]): string {
  const widths = header.map((title, i) =>
    Math.max(title.length, ...rows.map((row) => (row[i] ?? '').length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return `${[line(header), ...rows.map(line)].join('\n')}\n`;
}

function secretsSummary(key: PublicKey): string {
  const open = key.rotation.secrets.filter((secret) => secret.usable);
  return open.map((secret) => `${secret.prefix}:${secret.callCount}`).join(' ');
}

/** Keys as a table: id, name, environment, status, scopes, expiry, calls per open secret, last call. */
export function formatKeyTable(keys: readonly PublicKey[]): string {
  return formatTable(
    ['ID', 'NAME', 'ENV', 'STATUS', 'SCOPES', 'EXPIRES', 'SECRETS:CALLS', 'LAST CALL'],
    keys.map((key) => [
      key.id,
      key.name,
      key.environment,
      key.expired ? 'expired' : key.status,
      key.scopes.join(','),
      key.expiresAt ?? '-',
      secretsSummary(key) || '-',
      key.lastCallAt ?? '-',
    ]),
  );
}
