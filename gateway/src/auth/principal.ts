import type { Response } from 'express';
import type { ApiKey, SecretRecord } from '../model/model.ts';

/** The verified caller of one request, set by the auth pipeline on `res.locals.principal`. */
export interface Principal {
  key: ApiKey;
  secret: SecretRecord;
  /** The client IP as resolved through the trusted proxies. */
  clientIp: string;
  /** `req_…`, also sent upstream and back as `X-Request-Id`. */
  requestId: string;
}

/** The principal of an authenticated request; throws if the pipeline did not run (a wiring bug). */
export function principalOf(res: Response): Principal {
  const principal = res.locals.principal as Principal | undefined;
  if (!principal) throw new Error('no principal: the auth pipeline did not run for this route');
  return principal;
}
