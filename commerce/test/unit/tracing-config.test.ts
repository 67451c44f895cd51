import assert from 'node:assert/strict';
import { ConfigError, parseConfig } from '../../src/config.ts';

describe('parseConfig: tracing (OTEL_*)', () => {
  it('leaves tracing off without an OTLP endpoint, or with OTEL_SDK_DISABLED=true', () => {
    assert.equal(parseConfig({}).tracing, null);
    assert.equal(
      parseConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_SDK_DISABLED: 'true' })
        .tracing,
      null,
    );
  });

  it('traces as keygate-commerce in its environment, with the sampler and protocol asked for', () => {
    const config = parseConfig({
      COMMERCE_ENV: 'test',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://127.0.0.1:4318/v1/traces',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.25',
    });
    assert.deepEqual(
      {
        service: config.tracing?.serviceName,
        resource: config.tracing?.resource,
        protocol: config.tracing?.protocol,
        sampler: config.tracing?.sampler,
        ratio: config.tracing?.ratio,
      },
      {
        service: 'keygate-commerce',
        resource: { 'deployment.environment.name': 'test' },
        protocol: 'http/json',
        sampler: 'parentbased_traceidratio',
        ratio: 0.25,
      },
    );
  });

  it('names a bad tracing variable in its one config error', () => {
    assert.throws(
      () => parseConfig({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }),
      (error: Error) =>
        error instanceof ConfigError &&
        error.message.includes("OTEL_EXPORTER_OTLP_PROTOCOL must be 'http/protobuf' or 'http/json'"),
    );
  });
});
