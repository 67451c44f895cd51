import { CommerceError } from '../errors.ts';

/** Page cursors are opaque to clients: base64url JSON naming the last SKU of the previous page. */

/** The cursor that continues after `sku`. */
export function encodeCursor(sku: string): string {
  return Buffer.from(JSON.stringify({ after: sku }), 'utf8').toString('base64url');
}

/** The SKU a cursor continues after; INVALID_CURSOR when it is not one of ours. */
export function decodeCursor(cursor: string): string {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (typeof value === 'object' && value !== null && 'after' in value && typeof value.after === 'string') {
      return value.after;
    }
  } catch {
    // fall through to the problem below
  }
  throw new CommerceError(
    'INVALID_CURSOR',
    'The cursor is not valid; use the nextCursor of a previous page.',
  );
}
