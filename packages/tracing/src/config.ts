import { z } from 'zod';

/** `OTEL_TRACES_SAMPLER` values the SDK spec defines (the Jaeger and X-Ray ones are not offered). */
export const SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;
export type SamplerName = (typeof SAMPLERS)[number];

const PROTOCOLS = ['http/protobuf', 'http/json'] as const;
export type OtlpProtocol = (typeof PROTOCOLS)[number];

const url = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });

/**
 * The standard OpenTelemetry variables the services honour (parse only what is present: an empty
 * variable counts as unset, as the OpenTelemetry spec says). Endpoint, headers and timeout are read
 * by the OTLP exporter itself; they are validated here so a typo stops the process at start.
 */
export const TracingEnvSchema = z.object({
  OTEL_SDK_DISABLED: z
    .string()
    .transform((text) => text.trim().toLowerCase() === 'true')
    .optional(),
  OTEL_EXPORTER_OTLP_ENDPOINT: url.optional(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: url.optional(),
  OTEL_EXPORTER_OTLP_PROTOCOL: z
    .enum(PROTOCOLS, { error: "must be 'http/protobuf' or 'http/json'" })
    .optional(),
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: z
    .enum(PROTOCOLS, { error: "must be 'http/protobuf' or 'http/json'" })
    .optional(),
  OTEL_TRACES_SAMPLER: z
    .enum(SAMPLERS, { error: `must be one of ${SAMPLERS.join(', ')}` })
    .default('parentbased_always_on'),
  OTEL_TRACES_SAMPLER_ARG: z.coerce
    .number({ error: 'must be a number from 0 to 1' })
    .min(0, 'must be a number from 0 to 1')
    .max(1, 'must be a number from 0 to 1')
    .optional(),
  OTEL_SERVICE_NAME: z.string().min(1).optional(),
  OTEL_BSP_SCHEDULE_DELAY: z.coerce
    .number({ error: 'must be a whole number of milliseconds' })
    .int('must be a whole number of milliseconds')
    .positive('must be a whole number of milliseconds')
    .default(5_000),
  OTEL_BSP_MAX_QUEUE_SIZE: z.coerce
    .number({ error: 'must be a positive whole number' })
    .int('must be a positive whole number')
    .positive('must be a positive whole number')
    .default(2_048),
});
export type TracingEnv = z.infer<typeof TracingEnvSchema>;

/** What the tracer is started with; absent (null) when tracing is off. */
export interface TracingConfig {
  serviceName: string;
  protocol: OtlpProtocol;
  sampler: SamplerName;
  /** The ratio of the `traceidratio` samplers (1 unless OTEL_TRACES_SAMPLER_ARG says otherwise). */
  ratio: number;
  /** Resource attributes beside the service name (e.g. `deployment.environment.name`). */
  resource: Record<string, string>;
  /** Delay (ms) between two exports of the queued spans (OTEL_BSP_SCHEDULE_DELAY). */
  scheduleDelayMs: number;
  /** Spans queued at most; beyond, new spans are dropped and counted (OTEL_BSP_MAX_QUEUE_SIZE). */
  maxQueueSize: number;
}

/**
 * Tracing is on when an OTLP endpoint is set (general or for traces) and OTEL_SDK_DISABLED is not
 * `true`; otherwise null, and the services never load the SDK.
 */
export function tracingConfigOf(
  env: TracingEnv,
  defaults: { serviceName: string; resource?: Record<string, string> },
): TracingConfig | null {
  if (env.OTEL_SDK_DISABLED === true) return null;
  if (env.OTEL_EXPORTER_OTLP_ENDPOINT === undefined && env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT === undefined)
    return null;
  return {
    serviceName: env.OTEL_SERVICE_NAME ?? defaults.serviceName,
    protocol: env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'http/protobuf',
    sampler: env.OTEL_TRACES_SAMPLER,
    ratio: env.OTEL_TRACES_SAMPLER_ARG ?? 1,
    resource: defaults.resource ?? {},
    scheduleDelayMs: env.OTEL_BSP_SCHEDULE_DELAY,
    maxQueueSize: env.OTEL_BSP_MAX_QUEUE_SIZE,
  };
}
