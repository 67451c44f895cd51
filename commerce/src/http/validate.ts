import { fieldErrors } from '@keygate/problem';
import type { z } from 'zod';
import { CommerceError } from '../errors.ts';

/** The request part a value came from; it roots the JSON pointers of validation errors. */
export type RequestPart = 'body' | 'query' | 'headers' | 'params';

const ROOTS: Record<RequestPart, string> = {
  body: '',
  query: '/query',
  headers: '/headers',
  params: '/params',
};

/**
 * Parses `value` with `schema`, or throws VALIDATION_FAILED (422) with one `errors` entry per
 * problem. Body pointers are plain JSON pointers (`/qty`); others are rooted (`/query/limit`).
 */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, part: RequestPart): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const errors = fieldErrors(result.error.issues, ROOTS[part]);
  const detail = errors.map((e) => `${e.pointer || '/'}: ${e.detail}`).join('; ');
  throw new CommerceError('VALIDATION_FAILED', `The request is not valid: ${detail}`, { errors });
}
