import type { Request } from 'express';

/**
 * A path parameter as a string. Express types a route's params from its pattern, which does not
 * see through escaped colons (`/:id\\:cancel`), so routes read them through this.
 */
export function pathParam(req: Request, name: string): string {
  return String((req.params as Record<string, unknown>)[name]);
}
