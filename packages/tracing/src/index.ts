/**
 * The tracer port of the gateway and commerce. This module loads no part of the OpenTelemetry SDK:
 * `startTracing` imports it (`./sdk.ts`) only when tracing is configured, so a service with tracing
 * off never loads it, and its request paths only test whether a tracer exists.
 */
import type { Attributes, Span, SpanKind } from '@opentelemetry/api';
import type { TracingConfig } from './config.ts';

export type { Attributes, Span } from '@opentelemetry/api';
export {
  SAMPLERS,
  type SamplerName,
  type TracingConfig,
  type TracingEnv,
  TracingEnvSchema,
  tracingConfigOf,
} from './config.ts';

/** How a server treats an incoming `traceparent`: continue its trace, or start a new one linked to it. */
export type IncomingTrace = 'continue' | 'link';

/** Reads one request header (lower-case name), as node:http and Express hold them. */
export type HeaderSource = Record<string, string | string[] | undefined>;

/** `SpanKind` values (`@opentelemetry/api` is not loaded here). */
export const SPAN_KIND = { internal: 0 as SpanKind, server: 1 as SpanKind, client: 2 as SpanKind };
/** `SpanStatusCode.ERROR`. */
const STATUS_ERROR = 2;

export interface Tracer {
  /** A server span for a request: its trace continued from `traceparent`, or (`link`) a new root linking to it. */
  startServer(name: string, headers: HeaderSource, incoming: IncomingTrace, attributes?: Attributes): Span;
  /** A child of `parent` (or of the active span when absent). */
  startChild(name: string, parent: Span | undefined, kind: SpanKind, attributes?: Attributes): Span;
  /** A new root span linked to the span a `traceparent` names (none when it is absent or invalid). */
  startLinked(name: string, traceparent: string | null, kind: SpanKind, attributes?: Attributes): Span;
  /** Runs `fn` with `span` active: spans started inside (also after awaits) are its children. */
  withSpan<T>(span: Span, fn: () => T): T;
  /** The active span, if any. */
  activeSpan(): Span | undefined;
  /** Spans the SDK gave up on, by reason (`queue_full`, or the export error's name). */
  droppedSpans(): ReadonlyMap<string, number>;
  /** Exports what is queued (bounded by the exporter's timeout) and stops. */
  shutdown(): Promise<void>;
}

/** Starts the SDK for `config`, or returns null (nothing loaded) when tracing is off. */
export async function startTracing(config: TracingConfig | null): Promise<Tracer | null> {
  if (config === null) return null;
  const { createSdkTracer } = await import('./sdk.ts');
  return createSdkTracer(config);
}

/** The W3C `traceparent` of a span (`00-<trace id>-<span id>-<flags>`). */
export function traceparentOf(span: Span): string {
  const { traceId, spanId, traceFlags } = span.spanContext();
  return `00-${traceId}-${spanId}-${traceFlags & 1 ? '01' : '00'}`;
}

/** The span's `tracestate`, if it carries one. */
export function tracestateOf(span: Span): string | undefined {
  return span.spanContext().traceState?.serialize() || undefined;
}

/** Ends a span as failed: error status and `error.type` (a problem code, or an error's name). */
export function failSpan(span: Span, errorType: string, message?: string): void {
  span.setAttribute('error.type', errorType);
  span.setStatus({ code: STATUS_ERROR, message: message ?? errorType });
}

export { DROPPED_SPANS_METRIC, registerDroppedSpans } from './dropped-spans.ts';
