import { type CommerceErrorCode, ERROR_TABLE } from '@keygate/contracts/commerce';

export { type CommerceErrorCode, ERROR_TABLE };

/** The one error class of the commerce service: a stable code, a detail and extension members. */
export class CommerceError extends Error {
  readonly code: CommerceErrorCode;
  readonly extensions: Record<string, unknown>;
  constructor(code: CommerceErrorCode, detail: string, extensions: Record<string, unknown> = {}) {
    super(detail);
    this.name = 'CommerceError';
    this.code = code;
    this.extensions = extensions;
  }

  get status(): number {
    return ERROR_TABLE[this.code].status;
  }
}
