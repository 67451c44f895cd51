import {
  type ChangeScopesInput,
  ChangeScopesInputSchema,
  type CloseSecretInput,
  CloseSecretInputSchema,
  type CreateKeyInput,
  CreateKeyInputSchema,
  DEFAULT_OVERLAP_DAYS,
  ExpiryDateSchema,
  IpAllowlistSchema,
  MAX_IP_ENTRIES,
  MAX_SCOPES,
  NAME_MAX_LENGTH,
  OVERLAP_DAYS_MAX,
  RATE_LIMIT_MAX,
  RATE_LIMIT_MIN,
  RateLimitSchema,
  type RotateKeyInput,
  RotateKeyInputSchema,
  ScopesSchema,
} from '@keygate/contracts/gateway';
import { fieldErrors } from '@keygate/problem';
import type { z } from 'zod';
import { GatewayError } from '../errors.ts';

export {
  type ChangeScopesInput,
  ChangeScopesInputSchema,
  type CloseSecretInput,
  CloseSecretInputSchema,
  type CreateKeyInput,
  CreateKeyInputSchema,
  DEFAULT_OVERLAP_DAYS,
  ExpiryDateSchema,
  IpAllowlistSchema,
  MAX_IP_ENTRIES,
  MAX_SCOPES,
  NAME_MAX_LENGTH,
  OVERLAP_DAYS_MAX,
  RATE_LIMIT_MAX,
  RATE_LIMIT_MIN,
  RateLimitSchema,
  type RotateKeyInput,
  RotateKeyInputSchema,
  ScopesSchema,
};

/** Validates `raw` or throws 422 VALIDATION_FAILED with `errors: [{detail, pointer}]`. */
export function parseInput<S extends z.ZodType>(schema: S, raw: unknown, root = ''): z.infer<S> {
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  throw validationError(fieldErrors(result.error.issues, root));
}

/** A 422 VALIDATION_FAILED error listing each problem beside its JSON pointer. */
export function validationError(errors: Array<{ detail: string; pointer: string }>): GatewayError {
  const summary = errors.map((error) => `${error.pointer || '/'}: ${error.detail}`).join('; ');
  return new GatewayError('VALIDATION_FAILED', `Invalid request: ${summary}`, { errors });
}
