import assert from 'node:assert/strict';
import { TracingEnvSchema, tracingConfigOf } from '../src/index.ts';

const DEFAULTS = { serviceName: 'keygate-test', resource: { 'deployment.environment.name': 'test' } };
const configOf = (env: Record<string, string>) => tracingConfigOf(TracingEnvSchema.parse(env), DEFAULTS);
const problemsOf = (env: Record<string, string>) => {
  const parsed = TracingEnvSchema.safeParse(env);
  assert.equal(parsed.success, false);
  return parsed.error!.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
};

describe('tracing configuration (OTEL_*)', () => {
  it('is off without an OTLP endpoint', () => {
    assert.equal(configOf({}), null);
    assert.equal(configOf({ OTEL_TRACES_SAMPLER: 'always_on', OTEL_SERVICE_NAME: 'x' }), null);
  });

  it('is on with the general or the traces endpoint, with the documented defaults', () => {
    const expected = {
      serviceName: 'keygate-test',
      protocol: 'http/protobuf',
      sampler: 'parentbased_always_on',
      ratio: 1,
      resource: { 'deployment.environment.name': 'test' },
      scheduleDelayMs: 5_000,
      maxQueueSize: 2_048,
    };
    assert.deepEqual(configOf({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }), expected);
    assert.deepEqual(
      configOf({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://collector/v1/traces' }),
      expected,
    );
  });

  it('is off when OTEL_SDK_DISABLED=true, whatever else is set', () => {
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };
    assert.equal(configOf({ ...env, OTEL_SDK_DISABLED: 'true' }), null);
    assert.equal(configOf({ ...env, OTEL_SDK_DISABLED: 'TRUE' }), null);
    assert.notEqual(configOf({ ...env, OTEL_SDK_DISABLED: 'false' }), null);
  });

  it('honours the protocol (traces-specific first), the sampler, its ratio and the service name', () => {
    const config = configOf({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.01',
      OTEL_SERVICE_NAME: 'edge-gateway',
    });
    assert.equal(config?.protocol, 'http/json');
    assert.equal(config?.sampler, 'parentbased_traceidratio');
    assert.equal(config?.ratio, 0.01);
    assert.equal(config?.serviceName, 'edge-gateway');
  });

  it('refuses unknown protocols, samplers, ratios outside 0..1 and endpoints that are no URL', () => {
    assert.deepEqual(problemsOf({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }), [
      "OTEL_EXPORTER_OTLP_PROTOCOL: must be 'http/protobuf' or 'http/json'",
    ]);
    assert.match(
      problemsOf({ OTEL_TRACES_SAMPLER: 'jaeger_remote' })[0]!,
      /^OTEL_TRACES_SAMPLER: must be one of/,
    );
    assert.deepEqual(problemsOf({ OTEL_TRACES_SAMPLER_ARG: '1.5' }), [
      'OTEL_TRACES_SAMPLER_ARG: must be a number from 0 to 1',
    ]);
    assert.deepEqual(problemsOf({ OTEL_TRACES_SAMPLER_ARG: 'half' }), [
      'OTEL_TRACES_SAMPLER_ARG: must be a number from 0 to 1',
    ]);
    assert.deepEqual(problemsOf({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' }), [
      'OTEL_EXPORTER_OTLP_ENDPOINT: must be an http(s) URL',
    ]);
  });
});
