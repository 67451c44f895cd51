import { ERRORS, type ErrorCode, type ErrorSpec } from '@keygate/contracts/gateway';
import type { Problem } from '@keygate/problem';
import { buildProblem } from '@keygate/problem';

export { ERRORS, type ErrorCode, type ErrorSpec };

/** The key a refusal was about, when the token named a real one (counted in its analytics). */
export interface RefusedKey {
  id: string;
  identityId?: string | null;
  environment: string;
}

/**
 * The gateway's one error class: a code from the table, a detail a person can act on, extension members.
 * An expected refusal (any 4xx: an unknown key, a missing scope, a spent rate limit) is built without
 * capturing a stack trace: it is an answer, not a fault, and a gateway under garbage builds one per
 * request; the trace would be its dearest part and nobody reads it. A 5xx keeps its stack.
 */
export class GatewayError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly extensions: Record<string, unknown>;
  /** The real key an EXPIRED, REVOKED or wrong-secret refusal was about; never in the problem body. */
  refusedKey?: RefusedKey;
  constructor(code: ErrorCode, detail: string, extensions: Record<string, unknown> = {}) {
    const limit = Error.stackTraceLimit;
    const isExpected = ERRORS[code].status < 500;
    if (isExpected) Error.stackTraceLimit = 0;
    super(detail);
    if (isExpected) Error.stackTraceLimit = limit;
    this.name = 'GatewayError';
    this.code = code;
    this.status = ERRORS[code].status;
    this.extensions = extensions;
  }

  /** The problem+json body for this error. */
  toProblem(instance?: string): Problem {
    const extra = instance ? { ...this.extensions, instance } : this.extensions;
    return buildProblem(this.code, this.status, ERRORS[this.code].title, this.message, extra);
  }
}
