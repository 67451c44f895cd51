import { type Request, type Response, Router } from 'express';
import type { Logger } from 'pino';
import type { KeyStore } from '../store/store.ts';
import type { GatewayMetrics } from './metrics.ts';

export interface OpsDeps {
  store: Pick<KeyStore, 'ping'>;
  /** Upstreams whose `/healthz` must answer for the gateway to be ready. */
  upstreams: ReadonlyArray<{ label: string; url: string }>;
  metrics: GatewayMetrics;
  /** Where failed readiness checks are logged with their cause (the response only says `fail`). */
  logger: Logger;
  /** Per-check timeout for /readyz (ms). */
  checkTimeoutMs?: number;
}

/** One readiness check: null when the part answered, else why not (logged, never sent). */
type Check = () => Promise<string | null>;

async function checkStore(store: OpsDeps['store']): Promise<string | null> {
  try {
    return (await store.ping()) ? null : 'ping answered false';
  } catch (error) {
    return `ping failed: ${(error as Error).message}`;
  }
}

async function checkUpstream(url: string, timeoutMs: number): Promise<string | null> {
  try {
    const response = await fetch(new URL('/healthz', url), { signal: AbortSignal.timeout(timeoutMs) });
    await response.body?.cancel();
    return response.ok ? null : `/healthz answered ${response.status}`;
  } catch (error) {
    const { name, message, cause } = error as Error;
    if (name === 'TimeoutError') return `timed out after ${timeoutMs} ms`;
    return cause instanceof Error ? `${message}: ${cause.message}` : message;
  }
}

/** Runs one check, timing it. */
async function runCheck(name: string, check: Check) {
  const startedAt = performance.now();
  const problem = await check();
  return { name, problem, latencyMs: Math.round((performance.now() - startedAt) * 10) / 10 };
}

/**
 * `/healthz` (alive), `/readyz` (store and every upstream answer: per part `ok` or `fail` and its
 * latency in ms; causes go to the log only), `/metrics`; none needs a key.
 */
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
      runCheck('store', () => checkStore(deps.store)),
      ...upstreams.map((target) => runCheck(target.label, () => checkUpstream(target.url, timeoutMs))),
    ]);
    const failed = results.filter((result) => result.problem !== null);
    for (const { name, problem, latencyMs } of failed) {
      deps.logger.warn({ check: name, problem, latencyMs }, 'readiness check failed');
    }
    res.setHeader('Cache-Control', 'no-store');
    res.status(failed.length === 0 ? 200 : 503).json({
      status: failed.length === 0 ? 'ready' : 'not ready',
      failed: failed.map((result) => result.name),
      checks: Object.fromEntries(results.map((result) => [result.name, result.problem ? 'fail' : 'ok'])),
      latencyMs: Object.fromEntries(results.map((result) => [result.name, result.latencyMs])),
    });
  });

  router.get('/metrics', async (_req: Request, res: Response) => {
    res.setHeader('Content-Type', deps.metrics.registry.contentType);
    res.send(await deps.metrics.registry.metrics());
  });
  return router;
}
