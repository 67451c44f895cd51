import assert from 'node:assert/strict';
import { loadConfig } from '../../../src/config.ts';

describe('loadConfig: tracing (OTEL_* and KEYGATE_TRACE_INCOMING)', () => {
  it('leaves tracing off and continues incoming traces by default', () => {
    const config = loadConfig({});
    assert.equal(config.tracing, null);
    assert.equal(config.traceIncoming, 'continue');
  });

  it('turns tracing on with an OTLP endpoint, as keygate-gateway unless OTEL_SERVICE_NAME says otherwise', () => {
    const config = loadConfig({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      KEYGATE_TRACE_INCOMING: 'link',
    });
    assert.equal(config.tracing?.serviceName, 'keygate-gateway');
    assert.equal(config.tracing?.protocol, 'http/json');
    assert.equal(config.traceIncoming, 'link');
    assert.equal(
      loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_SERVICE_NAME: 'edge' }).tracing
        ?.serviceName,
      'edge',
    );
  });

  it('keeps tracing off when OTEL_SDK_DISABLED=true, and an empty endpoint counts as unset', () => {
    assert.equal(
      loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_SDK_DISABLED: 'true' }).tracing,
      null,
    );
    assert.equal(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: '' }).tracing, null);
  });

  it('lists bad tracing values with the other problems in one error', () => {
    assert.throws(
      () =>
        loadConfig({
          KEYGATE_TRACE_INCOMING: 'follow',
          OTEL_TRACES_SAMPLER: 'sometimes',
          GATEWAY_PORT: 'x',
        }),
      (error: Error) =>
        error.message.includes("KEYGATE_TRACE_INCOMING: must be 'continue' or 'link'") &&
        error.message.includes('OTEL_TRACES_SAMPLER: must be one of') &&
        error.message.includes('GATEWAY_PORT'),
    );
  });
});
