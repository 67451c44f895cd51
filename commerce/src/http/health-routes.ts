import { Router } from 'express';
import type { Registry } from 'prom-client';
import { CommerceError } from '../errors.ts';
import { writeCommerceError } from './errors-middleware.ts';

/** /healthz (alive), /readyz (database reachable) and /metrics; no identity needed. */
export function createHealthRouter(deps: {
  isReady: () => boolean;
  registry: Registry;
  environment: string;
}): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok', environment: deps.environment });
  });
  router.get('/readyz', (_req, res) => {
    if (!deps.isReady()) {
      return writeCommerceError(res, new CommerceError('NOT_READY', 'The database is not reachable.'));
    }
    res.json({ status: 'ready', environment: deps.environment });
  });
  router.get('/metrics', async (_req, res) => {
    res.type(deps.registry.contentType).send(await deps.registry.metrics());
  });
  return router;
}
