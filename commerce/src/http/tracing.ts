import type { IncomingMessage } from 'node:http';
import { failSpan, SPAN_KIND, type Span, type Tracer } from '@keygate/tracing';
import type Database from 'better-sqlite3';
import type { NextFunction, Request, Response } from 'express';
import type { ExecutionArgs, OperationDefinitionNode } from 'graphql';

/**
 * Commerce's spans, with the OpenTelemetry semantic-convention names: a server span per request
 * continuing the gateway's trace, SQL statements (`db.system` sqlite, `db.operation.name`,
 * `db.query.text`: the prepared statement with its `?` placeholders, never the values) and GraphQL
 * operations. Only built when tracing is on.
 */

const serverSpans = new WeakMap<IncomingMessage, Span>();

/** The server span of a request (tracing on), for its log lines' `trace_id` and `span_id`. */
export function requestSpanOf(req: IncomingMessage): Span | undefined {
  return serverSpans.get(req);
}

/** Middleware: a server span per API request, active while it is handled (SQL and GraphQL spans are its children). */
export function traceRequests(tracer: Tracer) {
  return function traceRequest(req: Request, res: Response, next: NextFunction): void {
    // Probes and scrapes (`/healthz`, `/readyz`, `/metrics`) would be a trace every few seconds.
    if (!req.path.startsWith('/v2/')) return next();
    const span = tracer.startServer(req.method, req.headers, 'continue');
    serverSpans.set(req, span);
    // A request the sampler left out keeps its ids for the logs and the events it writes, nothing more.
    if (!span.isRecording()) return next();
    span.setAttributes({
      'http.request.method': req.method,
      'url.path': req.originalUrl.split('?')[0]!,
      'url.scheme': 'http',
    });
    res.on('close', () => {
      const status = res.writableFinished ? res.statusCode : 499;
      span.setAttribute('http.response.status_code', status);
      // Express sets `req.route` for the route that answered; the router's mount path is its prefix.
      if (req.route !== undefined) {
        const route = `${req.baseUrl}${String(req.route.path)}`;
        span.setAttribute('http.route', route);
        span.updateName(`${req.method} ${route}`);
      }
      if (status >= 500) failSpan(span, String(status));
      span.end();
    });
    tracer.withSpan(span, next);
  };
}

const STATEMENT_RUNS = new Set(['run', 'get', 'all', 'iterate']);

/** The first keyword of a statement (`SELECT`, `INSERT`, …), its `db.operation.name`. */
function operationOf(sql: string): string {
  const match = /^\s*(?:WITH\b[\s\S]*?\)\s*)?([A-Za-z]+)/.exec(sql);
  return (match?.[1] ?? 'SQL').toUpperCase();
}

/**
 * Wraps the connection's `prepare` so each run of a statement inside a traced request is a span.
 * better-sqlite3 is synchronous: the span covers exactly the statement's time. Statements run
 * outside any request (the webhook worker's polling, retention) make no span.
 */
export function traceSqlite(sqlite: Database.Database, tracer: Tracer): void {
  const prepare = sqlite.prepare.bind(sqlite);
  sqlite.prepare = ((source: string) => {
    const statement = prepare(source);
    const operation = operationOf(source);
    const attributes = { 'db.system': 'sqlite', 'db.operation.name': operation, 'db.query.text': source };
    const proxy: Database.Statement = new Proxy(statement, {
      get(target, name) {
        const value = Reflect.get(target, name, target);
        if (typeof value !== 'function') return value;
        if (typeof name === 'string' && STATEMENT_RUNS.has(name)) {
          return (...args: unknown[]) => {
            if (!tracer.activeSpan()?.isRecording()) return value.apply(target, args);
            const span = tracer.startChild(operation, undefined, SPAN_KIND.client, attributes);
            try {
              return value.apply(target, args);
            } catch (error) {
              failSpan(span, (error as Error).name ?? 'Error');
              throw error;
            } finally {
              span.end();
            }
          };
        }
        // Chained settings (`raw()`, `pluck()`, …) return the statement: keep handing out the proxy.
        return (...args: unknown[]) => {
          const result = value.apply(target, args);
          return result === target ? proxy : result;
        };
      },
    });
    return proxy;
  }) as typeof sqlite.prepare;
}

/** The operation a GraphQL request runs: its type and name (the document itself may hold values). */
function operationDefinitionOf(args: ExecutionArgs): OperationDefinitionNode | undefined {
  const operations = args.document.definitions.filter(
    (definition): definition is OperationDefinitionNode => definition.kind === 'OperationDefinition',
  );
  if (args.operationName == null) return operations[0];
  return operations.find((operation) => operation.name?.value === args.operationName);
}

/** graphql's `execute`, each operation a span (`graphql.operation.type`, `graphql.operation.name`). */
export function traceExecute<R>(tracer: Tracer, execute: (args: ExecutionArgs) => R) {
  return (args: ExecutionArgs): R => {
    if (!tracer.activeSpan()?.isRecording()) return execute(args);
    const operation = operationDefinitionOf(args);
    const type = operation?.operation ?? 'query';
    const name = operation?.name?.value;
    const span = tracer.startChild(name ? `${type} ${name}` : type, undefined, SPAN_KIND.internal, {
      'graphql.operation.type': type,
      ...(name ? { 'graphql.operation.name': name } : {}),
    });
    const ended = (result: unknown) => {
      const errors = (result as { errors?: unknown[] } | null)?.errors;
      if (errors && errors.length > 0) failSpan(span, 'GraphQLError');
      span.end();
      return result;
    };
    try {
      const result = tracer.withSpan(span, () => execute(args));
      if (result instanceof Promise)
        return result.then(ended, (error: unknown) => {
          failSpan(span, (error as Error).name ?? 'Error');
          span.end();
          throw error;
        }) as R;
      return ended(result) as R;
    } catch (error) {
      failSpan(span, (error as Error).name ?? 'Error');
      span.end();
      throw error;
    }
  };
}
