/**
 * The OpenTelemetry SDK behind the tracer port: loaded by `startTracing` only when tracing is on.
 * Spans go through the SDK's BatchSpanProcessor, whose queue is bounded (2048 spans) and whose
 * exports run off the request path: an unreachable collector costs dropped spans, counted, never
 * an answer or a request's time.
 */
import {
  type Attributes,
  type Context,
  context,
  propagation,
  type Span,
  type SpanKind,
  trace,
} from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  type Sampler,
  type SpanExporter,
  TraceIdRatioBasedSampler,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import type { SamplerName, TracingConfig } from './config.ts';
import { createDropCounter } from './drop-counter.ts';
import type { HeaderSource, IncomingTrace, Tracer } from './index.ts';

const SERVER = 1 as SpanKind;
/** How long a shutdown waits for the spans still queued to be exported. */
const SHUTDOWN_MS = 2_000;

/** The sampler OTEL_TRACES_SAMPLER (and its ratio) names. */
export function samplerOf(name: SamplerName, ratio: number): Sampler {
  switch (name) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(ratio);
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio) });
  }
}

function exporterOf(config: TracingConfig): SpanExporter {
  // Endpoint, headers and timeout come from the OTEL_EXPORTER_OTLP_* variables, read by the exporter.
  return config.protocol === 'http/json' ? new JsonExporter() : new ProtobufExporter();
}

const headerGetter = {
  keys: (carrier: HeaderSource) => Object.keys(carrier),
  get: (carrier: HeaderSource, key: string) => carrier[key],
};

export function createSdkTracer(config: TracingConfig): Tracer {
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  const propagator = new W3CTraceContextPropagator();
  propagation.setGlobalPropagator(propagator);
  const drops = createDropCounter();
  const provider = new TracerProvider({
    sampler: samplerOf(config.sampler, config.ratio),
    resource: resourceFromAttributes({ ...config.resource, [ATTR_SERVICE_NAME]: config.serviceName }),
    spanProcessors: [
      new BatchSpanProcessor({
        exporter: exporterOf(config),
        scheduledDelayMillis: config.scheduleDelayMs,
        maxQueueSize: config.maxQueueSize,
        maxExportBatchSize: Math.min(512, config.maxQueueSize),
        selfObsMeterProvider: drops.meterProvider,
      }),
    ],
  });
  trace.setGlobalTracerProvider(provider);
  const tracer = provider.getTracer('keygate');
  const root = context.active();

  function contextOf(headers: HeaderSource): Context {
    return propagator.extract(root, headers, headerGetter) as Context;
  }

  return {
    startServer(name, headers, incoming: IncomingTrace, attributes) {
      const remoteContext = headers.traceparent === undefined ? root : contextOf(headers);
      const remote = trace.getSpanContext(remoteContext);
      if (incoming === 'continue' || remote === undefined)
        return tracer.startSpan(name, { kind: SERVER, attributes }, remoteContext);
      return tracer.startSpan(name, { kind: SERVER, attributes, links: [{ context: remote }], root: true });
    },
    startChild(name, parent, kind, attributes?: Attributes) {
      const parentContext = parent === undefined ? context.active() : trace.setSpan(root, parent);
      return tracer.startSpan(name, { kind, attributes }, parentContext);
    },
    startLinked(name, traceparent, kind, attributes) {
      const linked = traceparent === null ? undefined : trace.getSpanContext(contextOf({ traceparent }));
      return tracer.startSpan(name, {
        kind,
        attributes,
        links: linked === undefined ? [] : [{ context: linked }],
        root: true,
      });
    },
    withSpan: <T>(span: Span, fn: () => T): T => context.with(trace.setSpan(context.active(), span), fn),
    activeSpan: () => trace.getActiveSpan(),
    droppedSpans: () => drops.counts,
    // An unreachable collector must not hold up a service's shutdown for the exporter's timeout.
    shutdown: () =>
      Promise.race([provider.shutdown(), new Promise<void>((done) => setTimeout(done, SHUTDOWN_MS).unref())]),
  };
}
