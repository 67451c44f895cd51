/** Thrown by a store when a page cursor was not made by it (or was tampered with). */
export class InvalidCursorError extends Error {
  constructor() {
    super('invalid page cursor');
    this.name = 'InvalidCursorError';
  }
}

/** A position in a newest-first list: the (at, id) of the last item returned. */
export interface CursorPosition {
  at: string;
  id: string;
}

/** Encodes a position as an opaque base64url string. */
export function encodeCursor(position: CursorPosition): string {
  return Buffer.from(JSON.stringify([position.at, position.id])).toString('base64url');
}

/** Decodes a cursor made by `encodeCursor`; throws InvalidCursorError otherwise. */
export function decodeCursor(cursor: string): CursorPosition {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && value.every((part) => typeof part === 'string')) {
      return { at: value[0] as string, id: value[1] as string };
    }
  } catch {
    // fall through: not JSON
  }
  throw new InvalidCursorError();
}

/** Default and maximum page sizes shared by every backend. */
export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 1000;

/** Clamps a requested page size into 1..MAX_PAGE_SIZE. */
export function pageSizeOf(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit)) return DEFAULT_PAGE_SIZE;
  return Math.min(MAX_PAGE_SIZE, Math.max(1, Math.floor(limit)));
}
