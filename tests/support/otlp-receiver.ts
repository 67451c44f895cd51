import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';

/**
 * The OTLP protobuf messages as the OpenTelemetry JS packages generated them (protobufjs, from the
 * official opentelemetry-proto definitions); 0.215 is the last otlp-transformer that ships them.
 */
const generated = createRequire(import.meta.url)(
  '@opentelemetry/otlp-transformer/build/src/generated/root.js',
);
const ExportTraceServiceRequest: {
  decode(bytes: Uint8Array): unknown;
  toObject(message: unknown, options: object): OtlpRequest;
} = generated.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;

type AnyValue = {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
};
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  traceState?: string;
  name: string;
  kind: number;
  attributes?: { key: string; value: AnyValue }[];
  links?: { traceId: string; spanId: string }[];
  status?: { code?: number | string };
}
interface OtlpRequest {
  resourceSpans?: {
    resource?: { attributes?: { key: string; value: AnyValue }[] };
    scopeSpans?: { spans?: OtlpSpan[] }[];
  }[];
}

/** One exported span, with ids in hex and attribute values as plain values. */
export interface ReceivedSpan {
  service: string;
  resource: Record<string, unknown>;
  traceId: string;
  spanId: string;
  /** Empty for a root span. */
  parentSpanId: string;
  /** The W3C `tracestate` the span carries ('' without one). */
  traceState: string;
  name: string;
  /** OTLP's SpanKind: 2 server, 3 client. */
  kind: number;
  attributes: Record<string, unknown>;
  links: { traceId: string; spanId: string }[];
  /** 2 is error. */
  statusCode: number;
}

export interface OtlpReceiver {
  /** The base URL, for OTEL_EXPORTER_OTLP_ENDPOINT. */
  url: string;
  spans: ReceivedSpan[];
  /** Content types of the export requests received. */
  contentTypes: string[];
  close(): Promise<void>;
}

const plainValueOf = (value: AnyValue): unknown =>
  value.stringValue ??
  (value.intValue === undefined ? undefined : Number(value.intValue)) ??
  value.boolValue ??
  value.doubleValue;

const attributesOf = (list: { key: string; value: AnyValue }[] = []) =>
  Object.fromEntries(list.map(({ key, value }) => [key, plainValueOf(value)]));

/** Protobuf ids are bytes (base64 after toObject); JSON ids are hex already. */
const hexOf = (id: string | undefined, isProtobuf: boolean) =>
  id === undefined || id === '' ? '' : isProtobuf ? Buffer.from(id, 'base64').toString('hex') : id;

const STATUS_CODES: Record<string, number> = {
  STATUS_CODE_UNSET: 0,
  STATUS_CODE_OK: 1,
  STATUS_CODE_ERROR: 2,
};

function spansOf(request: OtlpRequest, isProtobuf: boolean): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  for (const resourceSpans of request.resourceSpans ?? []) {
    const resource = attributesOf(resourceSpans.resource?.attributes);
    for (const scope of resourceSpans.scopeSpans ?? []) {
      for (const span of scope.spans ?? []) {
        const code = span.status?.code ?? 0;
        spans.push({
          service: String(resource['service.name']),
          resource,
          traceId: hexOf(span.traceId, isProtobuf),
          spanId: hexOf(span.spanId, isProtobuf),
          parentSpanId: hexOf(span.parentSpanId, isProtobuf),
          traceState: span.traceState ?? '',
          name: span.name,
          kind: span.kind,
          attributes: attributesOf(span.attributes),
          links: (span.links ?? []).map((link) => ({
            traceId: hexOf(link.traceId, isProtobuf),
            spanId: hexOf(link.spanId, isProtobuf),
          })),
          statusCode: typeof code === 'string' ? (STATUS_CODES[code] ?? -1) : code,
        });
      }
    }
  }
  return spans;
}

/** A real OTLP/HTTP trace receiver on a free loopback port: decodes http/protobuf and http/json exports. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const contentTypes: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const type = req.headers['content-type'] ?? '';
      contentTypes.push(type);
      if (req.method !== 'POST' || req.url !== '/v1/traces') {
        res.writeHead(404).end();
        return;
      }
      if (type.startsWith('application/x-protobuf')) {
        const message = ExportTraceServiceRequest.decode(body);
        const request = ExportTraceServiceRequest.toObject(message, {
          longs: String,
          bytes: String,
          enums: Number,
        });
        spans.push(...spansOf(request, true));
        res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
      } else {
        spans.push(...spansOf(JSON.parse(body.toString('utf8')) as OtlpRequest, false));
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    contentTypes,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
