import type { Environment } from '@keygate/identity';
import { Router } from 'express';
import type { CommerceDatabase } from '../db/database.ts';
import { CommerceError } from '../errors.ts';
import { callerKeyId } from '../http/params.ts';
import { parseInput } from '../http/validate.ts';
import { resetToSeed } from '../seed/seed-database.ts';
import { EmptyBodySchema } from '../webhooks/endpoint-schemas.ts';

/** The path the gateway's route table names as this service's test-data reset (`sandboxReset`). */
export const RESET_PATH = '/v2/sandbox:reset';

/**
 * `POST /v2/sandbox:reset`: the test environment's data back to the seed. Only the gateway's admin
 * side calls it (the admin interface and `pnpm keygate sandbox reset`), with an identity assertion it
 * signs for an administrator (`adm_…`, or `cli:<user>` from the operator CLI) instead of an API key;
 * the route table gives integrators no route to it, and a key's assertion (`key_…`) is refused here
 * as well. The live environment refuses it whoever asks.
 */
export function createResetRouter(deps: { db: CommerceDatabase; environment: Environment }): Router {
  const router = Router();
  router.post('/v2/sandbox\\:reset', (req, res) => {
    if (deps.environment !== 'test') {
      throw new CommerceError('SANDBOX_ONLY', 'Only the test environment can be reset.');
    }
    const caller = callerKeyId(req);
    if (!caller.startsWith('adm_') && !caller.startsWith('cli:')) {
      throw new CommerceError('ADMIN_ONLY', 'Only an administrator can reset the test environment.');
    }
    parseInput(EmptyBodySchema, req.body, 'body');
    res.json({ environment: deps.environment, seeded: resetToSeed(deps.db, deps.environment) });
  });
  return router;
}
