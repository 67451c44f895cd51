import { type Request, type Response, Router } from 'express';
import type { KeyStore } from '../store/store.ts';
import type { GatewayMetrics } from './metrics.ts';

export interface OpsDeps {
  store: Pick<KeyStore, 'ping'>;
  /** Upstreams whose `/healthz` must answer for the gateway to be ready. */
  upstreams: ReadonlyArray<{ label: string; url: string }>;
  metrics: GatewayMetrics;
  /** Per-check timeout for /readyz (ms). */
  checkTimeoutMs?: number;
}

async function checkStore(store: OpsDeps['store']): Promise<string> {
  try {
    return (await store.ping()) ? 'ok' : 'not answering';
  } catch (error) {
    return `failed: ${(error as Error).message}`;
  }
}

async function checkUpstream(url: string, timeoutMs: number): Promise<string> {
  try {
    const response = await fetch(new URL('/healthz', url), { signal: AbortSignal.timeout(timeoutMs) });
    await response.body?.cancel();
    return response.ok ? 'ok' : `status ${response.status}`;
  } catch (error) {
    return `unreachable: ${(error as Error).name === 'TimeoutError' ? 'timed out' : (error as Error).message}`;
  }
}

/** `/healthz` (alive), `/readyz` (store and every upstream answer), `/metrics`; none needs a key. */
export function createOpsRouter(deps: OpsDeps): Router {
  const router = Router();
  const timeoutMs = deps.checkTimeoutMs ?? 2000;
  const upstreams = [...new Map(deps.upstreams.map((target) => [target.url, target])).values()];

  router.get('/healthz', (_req: Request, res: Response) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json({ status: 'ok' });
  });

  router.get('/readyz', async (_req: Request, res: Response) => {
    const results = await Promise.all([
      checkStore(deps.store).then((result) => ['store', result] as const),
      ...upstreams.map(async (target) => [target.label, await checkUpstream(target.url, timeoutMs)] as const),
    ]);
    const checks = Object.fromEntries(results);
    const failed = results.filter(([, result]) => result !== 'ok').map(([name]) => name);
    res.setHeader('Cache-Control', 'no-store');
    res
      .status(failed.length === 0 ? 200 : 503)
      .json({ status: failed.length === 0 ? 'ready' : 'not ready', failed, checks });
  });

  router.get('/metrics', async (_req: Request, res: Response) => {
    res.setHeader('Content-Type', deps.metrics.registry.contentType);
    res.send(await deps.metrics.registry.metrics());
  });
  return router;
}
