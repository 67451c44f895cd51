import assert from 'node:assert/strict';
import { type OtlpReceiver, startOtlpReceiver } from '../support/otlp-receiver.ts';
import { type System, startSystem } from '../support/system.ts';
import {
  CLIENT,
  callerContext,
  ERROR,
  inTrace,
  logLinesOfTrace,
  one,
  SERVER,
  unknownToken,
} from '../support/trace-queries.ts';
import { waitUntil } from '../support/traffic.ts';
import { startReceiver } from '../support/webhook-receiver.ts';

for (const protocol of ['http/protobuf', 'http/json'] as const) {
  describe(`tracing over OTLP ${protocol}`, function () {
    this.timeout(60_000);
    let otlp: OtlpReceiver;
    let system: System;
    /** Every token a test used: none of them, nor their prefixes, may appear in any span. */
    const tokens: string[] = [];

    before(async () => {
      otlp = await startOtlpReceiver();
      const tracingEnv = {
        OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
        OTEL_BSP_SCHEDULE_DELAY: '100',
        // Access lines (and commerce's request lines) are written at info.
        LOG_LEVEL: 'info',
      };
      system = await startSystem({
        gatewayEnv: tracingEnv,
        commerceEnv: {
          ...tracingEnv,
          KEYGATE_WEBHOOKS_ALLOW_PRIVATE: 'true',
          COMMERCE_WEBHOOK_POLL_MS: '100',
        },
      });
    });

    after(async () => {
      await system?.stop();
      await otlp?.close();
    });

    it('follows one call from the caller through the gateway into commerce and SQLite', async () => {
      const key = await system.createKey({ name: 'traced', env: 'test', scopes: ['stock:r'] });
      tokens.push(key.secret, key.prefix);
      const caller = callerContext();
      const res = await system.call(key.secret, '/v2/stock/KG-00001', {
        headers: { traceparent: caller.traceparent, tracestate: 'caller=t61rcWkgMzE' },
      });
      assert.equal(res.status, 200, await res.clone().text());
      const access = res.headers.get('x-request-id');

      await waitUntil('the commerce server span arrived', () =>
        inTrace(otlp.spans, caller.traceId).some(
          (s) => s.service === 'keygate-commerce' && s.kind === SERVER,
        ),
      );
      await waitUntil('the gateway server span arrived', () =>
        inTrace(otlp.spans, caller.traceId).some((s) => s.service === 'keygate-gateway' && s.kind === SERVER),
      );
      await waitUntil('the SQL spans arrived', () =>
        inTrace(otlp.spans, caller.traceId).some((s) => s.attributes['db.system'] === 'sqlite'),
      );
      assert.ok(
        otlp.contentTypes.every((type) =>
          type.startsWith(protocol === 'http/json' ? 'application/json' : 'application/x-protobuf'),
        ),
      );
      const spans = inTrace(otlp.spans, caller.traceId);
      const gateway = one(
        spans,
        'gateway server span',
        (s) => s.service === 'keygate-gateway' && s.kind === SERVER,
      );
      assert.equal(gateway.parentSpanId, caller.spanId, 'the gateway continues the caller’s trace');
      assert.equal(gateway.name, 'GET /v2/stock/{sku}');
      assert.deepEqual(
        {
          method: gateway.attributes['http.request.method'],
          route: gateway.attributes['http.route'],
          status: gateway.attributes['http.response.status_code'],
          path: gateway.attributes['url.path'],
          keyId: gateway.attributes['keygate.key.id'],
          requestId: gateway.attributes['keygate.request.id'],
        },
        {
          method: 'GET',
          route: '/v2/stock/{sku}',
          status: 200,
          path: '/v2/stock/KG-00001',
          keyId: key.id,
          requestId: access,
        },
      );
      assert.match(String(gateway.attributes['keygate.secret.id']), /^sec_/);
      const check = one(spans, 'key check span', (s) => s.name === 'keygate.key_check');
      assert.equal(check.parentSpanId, gateway.spanId);
      const limit = one(spans, 'rate limit span', (s) => s.name === 'keygate.rate_limit');
      assert.equal(limit.parentSpanId, check.spanId);
      assert.equal(limit.attributes['keygate.rate_limit.allowed'], true);
      const upstream = one(
        spans,
        'upstream span',
        (s) => s.service === 'keygate-gateway' && s.kind === CLIENT,
      );
      assert.equal(upstream.parentSpanId, gateway.spanId);
      assert.equal(upstream.attributes['http.response.status_code'], 200);

      const commerce = one(
        spans,
        'commerce server span',
        (s) => s.service === 'keygate-commerce' && s.kind === SERVER,
      );
      assert.equal(commerce.parentSpanId, upstream.spanId, 'commerce continues the gateway’s upstream span');
      assert.equal(commerce.resource['deployment.environment.name'], 'test');
      assert.deepEqual(
        [gateway.traceState, upstream.traceState, commerce.traceState],
        Array(3).fill('caller=t61rcWkgMzE'),
        'the caller’s tracestate travels with the trace',
      );
      assert.equal(commerce.attributes['http.route'], '/v2/stock/:sku');
      const sql = spans.filter((s) => s.attributes['db.system'] === 'sqlite');
      for (const statement of sql) {
        assert.equal(statement.parentSpanId, commerce.spanId);
        assert.equal(statement.attributes['db.operation.name'], 'SELECT');
        assert.doesNotMatch(
          String(statement.attributes['db.query.text']),
          /KG-00001/,
          'no bound value in the text',
        );
      }
    });

    it('makes a span of a GraphQL operation, its SQL inside it, and names the trace in both services’ log lines', async () => {
      const key = await system.createKey({ name: 'graphql', env: 'test', scopes: ['article:r'] });
      tokens.push(key.secret, key.prefix);
      const caller = callerContext();
      const res = await system.call(key.secret, '/v2/graphql', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', traceparent: caller.traceparent },
        body: JSON.stringify({
          query: 'query FirstProducts { products(channel: WEB_DE, first: 2) { sku name } }',
          operationName: 'FirstProducts',
        }),
      });
      assert.equal(res.status, 200, await res.clone().text());
      await waitUntil('the GraphQL span arrived', () =>
        inTrace(otlp.spans, caller.traceId).some(
          (s) => s.attributes['graphql.operation.name'] === 'FirstProducts',
        ),
      );
      const spans = inTrace(otlp.spans, caller.traceId);
      const operation = one(spans, 'GraphQL span', (s) => s.name === 'query FirstProducts');
      assert.equal(operation.attributes['graphql.operation.type'], 'query');
      const commerce = one(
        spans,
        'commerce server span',
        (s) => s.service === 'keygate-commerce' && s.kind === SERVER,
      );
      assert.equal(operation.parentSpanId, commerce.spanId);
      assert.ok(
        spans.some((s) => s.attributes['db.system'] === 'sqlite' && s.parentSpanId === operation.spanId),
        'the resolvers’ SQL runs inside the operation’s span',
      );
      const gateway = one(
        spans,
        'gateway server span',
        (s) => s.service === 'keygate-gateway' && s.kind === SERVER,
      );
      const lines = (output: string) => logLinesOfTrace(output, caller.traceId);
      await waitUntil('the access line is written', () => lines(system.gateway.output()).length > 0);
      const access = lines(system.gateway.output()).find((line) => line.msg === 'request');
      assert.deepEqual([access?.trace_id, access?.span_id], [caller.traceId, gateway.spanId]);
      const completed = lines(system.test.output()).find((line) => line.msg === 'request completed');
      assert.deepEqual([completed?.trace_id, completed?.span_id], [caller.traceId, commerce.spanId]);
    });

    it('carries a caller’s unsampled trace through both services without recording a span of it', async () => {
      const key = await system.createKey({ name: 'unsampled', env: 'test', scopes: ['stock:r'] });
      tokens.push(key.secret, key.prefix);
      const caller = callerContext();
      const res = await system.call(key.secret, '/v2/stock/KG-00001', {
        headers: { traceparent: caller.traceparent.replace(/-01$/, '-00') },
      });
      assert.equal(res.status, 200, await res.clone().text());
      // A sampled call after it: once its commerce span is in, any span of the first would be too.
      const sampled = callerContext();
      const after = await system.call(key.secret, '/v2/stock/KG-00001', {
        headers: { traceparent: sampled.traceparent },
      });
      assert.equal(after.status, 200);
      await waitUntil('the sampled call’s spans arrived', () =>
        inTrace(otlp.spans, sampled.traceId).some((s) => s.service === 'keygate-commerce'),
      );
      assert.deepEqual(inTrace(otlp.spans, caller.traceId), [], 'no span of the unsampled trace');
      const lines = (output: string) => logLinesOfTrace(output, caller.traceId);
      await waitUntil('the access line is written', () =>
        lines(system.gateway.output()).some((line) => line.msg === 'request'),
      );
      const access = lines(system.gateway.output()).find((line) => line.msg === 'request');
      assert.match(String(access?.span_id), /^[0-9a-f]{16}$/);
      assert.notEqual(access?.span_id, caller.spanId, 'the gateway’s own span id');
      // Commerce names the same trace: the gateway passed it upstream, marked not sampled.
      const completed = lines(system.test.output()).find((line) => line.msg === 'request completed');
      assert.equal(completed?.trace_id, caller.traceId);
    });

    it('ends a refused call’s span with error status and its problem code, and reaches no commerce', async () => {
      const unknown = unknownToken();
      tokens.push(unknown, unknown.slice(0, 16));
      const caller = callerContext();
      const res = await system.call(unknown, '/v2/stock/KG-00001', {
        headers: { traceparent: caller.traceparent },
      });
      assert.equal(res.status, 401);
      const { code } = (await res.json()) as { code: string };
      await waitUntil('the gateway span arrived', () =>
        inTrace(otlp.spans, caller.traceId).some((s) => s.kind === SERVER),
      );
      // Give commerce the time it would have needed to export a span of its own.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const spans = inTrace(otlp.spans, caller.traceId);
      const gateway = one(spans, 'gateway server span', (s) => s.kind === SERVER);
      assert.equal(gateway.statusCode, ERROR);
      assert.equal(gateway.attributes['keygate.problem.code'], code);
      assert.equal(gateway.attributes['http.response.status_code'], 401);
      assert.equal(spans.filter((s) => s.service === 'keygate-commerce').length, 0);
      assert.equal(spans.filter((s) => s.kind === CLIENT).length, 0, 'nothing went upstream');
    });

    it('traces the key-management API behind the same key check', async () => {
      const admin = await system.createKey({ name: 'admin', env: 'test', scopes: ['auth:rw'] });
      tokens.push(admin.secret, admin.prefix);
      const caller = callerContext();
      const res = await system.call(admin.secret, '/v2/auth/keys', {
        headers: { traceparent: caller.traceparent },
      });
      assert.equal(res.status, 200, await res.clone().text());
      await waitUntil('the gateway span arrived', () =>
        inTrace(otlp.spans, caller.traceId).some((s) => s.kind === SERVER),
      );
      const spans = inTrace(otlp.spans, caller.traceId);
      const gateway = one(spans, 'gateway server span', (s) => s.kind === SERVER);
      assert.equal(gateway.parentSpanId, caller.spanId);
      assert.equal(gateway.attributes['keygate.key.id'], admin.id);
      assert.equal(gateway.attributes['http.response.status_code'], 200);
      assert.equal(
        one(spans, 'key check span', (s) => s.name === 'keygate.key_check').parentSpanId,
        gateway.spanId,
      );
    });

    it('links a webhook delivery’s span to the trace of the call that caused it, and sends a traceparent', async () => {
      const hooks = await startReceiver();
      try {
        const key = await system.createKey({
          name: 'hooks',
          env: 'test',
          scopes: ['webhook:rw', 'stock:rw'],
        });
        tokens.push(key.secret, key.prefix);
        const created = await system.call(key.secret, '/v2/webhooks/endpoints', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ url: hooks.url, eventTypes: ['stock.updated'] }),
        });
        assert.equal(created.status, 201, await created.clone().text());
        const { secret } = (await created.json()) as { secret: string };
        tokens.push(secret);
        const caller = callerContext();
        const put = await system.call(key.secret, '/v2/stock/KG-00002', {
          method: 'PUT',
          headers: { 'Content-Type': 'application/json', traceparent: caller.traceparent },
          body: JSON.stringify({ onHand: 7 }),
        });
        assert.equal(put.status, 200, await put.clone().text());
        await waitUntil('the receiver got the event', () => hooks.received.length > 0);
        const traceparent = String(hooks.received[0]!.headers.traceparent);
        const [, deliveryTrace, deliverySpan] =
          /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/.exec(traceparent) ?? [];
        assert.ok(deliveryTrace, `a W3C traceparent: ${traceparent}`);
        assert.notEqual(deliveryTrace, caller.traceId, 'a delivery is a trace of its own');
        await waitUntil('the delivery span arrived', () => otlp.spans.some((s) => s.spanId === deliverySpan));
        const delivery = otlp.spans.find((s) => s.spanId === deliverySpan)!;
        assert.equal(delivery.service, 'keygate-commerce');
        assert.equal(delivery.kind, CLIENT);
        assert.equal(delivery.attributes['keygate.webhook.event.type'], 'stock.updated');
        assert.equal(delivery.attributes['http.response.status_code'], 204);
        assert.equal(delivery.links.length, 1);
        const writer = inTrace(otlp.spans, caller.traceId).find(
          (s) => s.service === 'keygate-commerce' && s.kind === SERVER,
        );
        assert.ok(writer, 'the writing request was traced');
        assert.deepEqual(delivery.links[0], { traceId: caller.traceId, spanId: writer.spanId });
      } finally {
        hooks.close();
      }
    });

    it('puts no token, secret or token prefix in any attribute, name or resource of any span', () => {
      assert.ok(tokens.length >= 6);
      assert.ok(otlp.spans.length > 10);
      for (const span of otlp.spans) {
        const text = JSON.stringify([span.name, span.attributes, span.resource]);
        for (const token of tokens)
          assert.ok(!text.includes(token), `${span.name} holds ${token.slice(0, 8)}…`);
        assert.doesNotMatch(text, /kg_(live|test)_/);
        assert.doesNotMatch(text, /whsec_/);
      }
    });

    it('answers exactly as before while the collector is unreachable, and counts the spans it drops', async () => {
      const key = await system.createKey({ name: 'offline', env: 'test', scopes: ['stock:r'] });
      const before = await system.call(key.secret, '/v2/stock/KG-00003');
      const expected = { status: before.status, body: await before.text() };
      await otlp.close();
      for (let i = 0; i < 20; i++) {
        const res = await system.call(key.secret, '/v2/stock/KG-00003', {
          headers: { traceparent: callerContext().traceparent },
        });
        assert.deepEqual({ status: res.status, body: await res.text() }, expected);
      }
      await waitUntil(
        'the gateway counted dropped spans',
        async () => {
          const metrics = await (await fetch(`${system.gateway.url}/metrics`)).text();
          return /^keygate_trace_spans_dropped_total\{reason="[^"]+"\} [1-9]/m.test(metrics);
        },
        { timeoutMs: 30_000, intervalMs: 250 },
      );
      await waitUntil(
        'commerce counted dropped spans',
        async () => {
          const metrics = await (await fetch(`${system.test.url}/metrics`)).text();
          // Commerce's series carry its default labels (service, environment) too.
          return /^keygate_trace_spans_dropped_total\{reason="[^"]+"[^}]*\} [1-9]/m.test(metrics);
        },
        { timeoutMs: 30_000, intervalMs: 250 },
      );
    });
  });
}
