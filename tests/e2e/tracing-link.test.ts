import assert from 'node:assert/strict';
import { type OtlpReceiver, startOtlpReceiver } from '../support/otlp-receiver.ts';
import { type System, startSystem } from '../support/system.ts';
import { callerContext, inTrace, one, SERVER } from '../support/trace-queries.ts';
import { waitUntil } from '../support/traffic.ts';

describe('tracing with KEYGATE_TRACE_INCOMING=link', function () {
  this.timeout(60_000);
  let otlp: OtlpReceiver;
  let system: System;

  before(async () => {
    otlp = await startOtlpReceiver();
    const tracingEnv = { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url, OTEL_BSP_SCHEDULE_DELAY: '100' };
    system = await startSystem({
      gatewayEnv: { ...tracingEnv, KEYGATE_TRACE_INCOMING: 'link' },
      commerceEnv: tracingEnv,
    });
  });

  after(async () => {
    await system?.stop();
    await otlp?.close();
  });

  it('starts a new trace linked to the caller’s, which commerce continues', async () => {
    const key = await system.createKey({ name: 'public', env: 'test', scopes: ['stock:r'] });
    const caller = callerContext();
    const res = await system.call(key.secret, '/v2/stock/KG-00001', {
      headers: { traceparent: caller.traceparent },
    });
    assert.equal(res.status, 200, await res.clone().text());
    await waitUntil('the gateway and commerce server spans arrived', () => {
      const servers = otlp.spans.filter((s) => s.kind === SERVER);
      return (
        servers.some((s) => s.service === 'keygate-gateway') &&
        servers.some((s) => s.service === 'keygate-commerce')
      );
    });
    assert.equal(inTrace(otlp.spans, caller.traceId).length, 0, 'no span joins the caller’s trace');
    const gateway = one(
      otlp.spans,
      'gateway server span',
      (s) => s.service === 'keygate-gateway' && s.kind === SERVER,
    );
    assert.equal(gateway.parentSpanId, '', 'a new root');
    assert.deepEqual(gateway.links, [{ traceId: caller.traceId, spanId: caller.spanId }]);
    const commerce = one(
      otlp.spans,
      'commerce server span',
      (s) => s.service === 'keygate-commerce' && s.kind === SERVER,
    );
    assert.equal(commerce.traceId, gateway.traceId);
  });
});
