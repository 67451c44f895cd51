import type { NextFunction, Request, Response } from 'express';
import { Counter, Histogram, Registry } from 'prom-client';

/** Per-app Prometheus metrics (an own Registry, so app instances in one process never collide). */
export interface HttpMetrics {
  registry: Registry;
  /** Middleware counting requests and timing them by route pattern and status. */
  observe: (req: Request, res: Response, next: NextFunction) => void;
}

/** Creates the registry and HTTP metrics; every series carries the environment label. */
export function createHttpMetrics(environment: string): HttpMetrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service: 'commerce', environment });
  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by method, route pattern and status.',
    labelNames,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by method, route pattern and status.',
    labelNames,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  return {
    registry,
    observe(req, res, next) {
      const end = duration.startTimer();
      res.on('finish', () => {
        // Route patterns, never raw paths, keep the label set small.
        const route = typeof req.route?.path === 'string' ? req.route.path : 'unmatched';
        const labels = { method: req.method, route, status: String(res.statusCode) };
        requests.inc(labels);
        end(labels);
      });
      next();
    },
  };
}
