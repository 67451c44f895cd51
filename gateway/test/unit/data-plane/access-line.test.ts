import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import type { Call } from '../../../src/data-plane/call.ts';
import {
  ACCESS_CHUNK_CHARS,
  ACCESS_FLUSH_MS,
  createAccessLine,
  millisecondsText,
} from '../../../src/data-plane/call-observer.ts';
import { createLogger } from '../../../src/http/logger.ts';

function sinkLogger() {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { logger: createLogger('info', sink), lines };
}

function call(over: Partial<Call> = {}): Call {
  return {
    requestId: 'req_0KHmXg1a2b3c4d5e6f7g',
    startedAt: 0,
    clientRequestId: 'client "quoted" \\ id',
    method: 'GET',
    url: '/v2/catalog/products?q=ümlaut&leak=kg_live_ABCDEF123&x=\u2028',
    path: '/v2/catalog/products',
    match: null,
    route: { rule: 'GET /v2/catalog/products' } as Call['route'],
    clientIp: '2001:db8::1',
    clientAddress: null,
    forwarded: undefined,
    verified: undefined,
    principal: { key: { id: 'key_1' }, secret: { id: 'sec_1' } } as Call['principal'],
    headers: [],
    observed: false,
    upstreamFailure: undefined,
    bodies: undefined,
    problem: undefined,
    refusedKey: undefined,
    span: undefined,
    budget: undefined,
    ...over,
  };
}

/** What pino itself writes for the same fields: the line the fast path must reproduce. */
function pinoLine(c: Call, status: number, latencyMs: number): string {
  const { logger, lines } = sinkLogger();
  logger.info(
    {
      requestId: c.requestId,
      clientRequestId: c.clientRequestId,
      method: c.method,
      path: c.url.replace(/kg_live_\w+/, 'kg_live_[redacted]'),
      status,
      rule: c.route?.rule,
      keyId: c.principal?.key.id,
      secretId: c.principal?.secret.id,
      clientIp: c.clientIp,
      latencyMs: Math.round(latencyMs * 1e3) / 1e3,
      trace_id: c.span?.spanContext().traceId,
      span_id: c.span?.spanContext().spanId,
    },
    'request',
  );
  return lines[0]!;
}

const withoutTime = (line: string) => line.replace(/"time":\d+/, '"time":0');

describe('createAccessLine', () => {
  for (const [name, c] of [
    ['an authorized call, with text that needs escaping', call()],
    [
      'a refused call: no route, no key, no client request id',
      call({ route: undefined, principal: undefined, clientRequestId: undefined }),
    ],
    [
      'a traced call: its trace and span ids',
      call({
        span: {
          spanContext: () => ({ traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7' }),
        } as unknown as Call['span'],
      }),
    ],
  ] as const) {
    it(`writes the line pino writes, byte for byte but the time: ${name}`, () => {
      const { logger, lines } = sinkLogger();
      const accessLine = createAccessLine(logger);
      accessLine(c, 401, 1.23456);
      accessLine.flush();
      assert.equal(lines.length, 1);
      assert.equal(withoutTime(lines[0]!), withoutTime(pinoLine(c, 401, 1.23456)));
      const parsed = JSON.parse(lines[0]!);
      assert.equal(parsed.msg, 'request');
      assert.equal(parsed.service, 'keygate-gateway');
      assert.doesNotMatch(lines[0]!, /ABCDEF123/);
    });
  }

  it('holds lines and hands them to the stream in order, one write per ACCESS_CHUNK_CHARS chunk', () => {
    const { logger, lines } = sinkLogger();
    const accessLine = createAccessLine(logger);
    let sent = 0;
    while (lines.length === 0) accessLine(call({ requestId: `req_${++sent}` }), 200, 1);
    assert.equal(lines.length, 1, 'the chunk left in one write');
    assert.ok(lines[0]!.length >= ACCESS_CHUNK_CHARS, 'once it reached the chunk size');
    assert.ok(sent > 20, `and not before (${sent} lines)`);
    accessLine(call({ requestId: 'req_next' }), 404, 2);
    assert.equal(lines.length, 1, 'the next line is held again');
    accessLine.flush();
    const written = lines.join('').split('\n');
    assert.equal(written.pop(), '', 'each line ends with a newline');
    assert.deepEqual(
      written.map((line) => JSON.parse(line).requestId),
      [...Array.from({ length: sent }, (_, i) => `req_${i + 1}`), 'req_next'],
    );
  });

  it(`writes held lines within ${ACCESS_FLUSH_MS} ms however few they are`, async () => {
    const { logger, lines } = sinkLogger();
    const accessLine = createAccessLine(logger);
    accessLine(call({ requestId: 'req_alone' }), 200, 1);
    assert.equal(lines.length, 0);
    await new Promise((resolve) => setTimeout(resolve, ACCESS_FLUSH_MS + 50));
    assert.equal(lines.length, 1);
    assert.equal(JSON.parse(lines[0]!).requestId, 'req_alone');
    accessLine.flush();
    assert.equal(lines.length, 1, 'nothing is written twice');
  });

  it("names each line's own key, secret and client, also beyond the values it keeps encoded", () => {
    const { logger, lines } = sinkLogger();
    const accessLine = createAccessLine(logger);
    const ids = Array.from({ length: 1_500 }, (_, i) => i % 1_200);
    for (const id of ids) {
      accessLine(
        call({
          principal: { key: { id: `key_${id}` }, secret: { id: `sec_${id}` } } as Call['principal'],
          clientIp: `10.0.${id >> 8}.${id & 255}`,
        }),
        200,
        1,
      );
    }
    accessLine.flush();
    const parsed = lines
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    assert.deepEqual(
      parsed.map((line) => [line.keyId, line.secretId, line.clientIp]),
      ids.map((id) => [`key_${id}`, `sec_${id}`, `10.0.${id >> 8}.${id & 255}`]),
    );
  });

  it('writes each latency as JSON writes it rounded to the µs (whole, one to three decimals, sub-ms)', () => {
    const { logger, lines } = sinkLogger();
    const accessLine = createAccessLine(logger);
    const latencies = [
      0, 0.0004, 0.0006, 0.007, 0.05, 0.3, 1, 1.5, 1.25, 1.205, 12.0001, 999.9999, 86_400_000.123,
    ];
    for (const latency of latencies) accessLine(call(), 200, latency);
    accessLine.flush();
    const written = lines.join('').split('\n').filter(Boolean);
    assert.deepEqual(
      written.map((line) => /"latencyMs":([^,}]+)/.exec(line)?.[1]),
      latencies.map((latency) => JSON.stringify(Math.round(latency * 1e3) / 1e3)),
    );
  });
});

describe('millisecondsText', () => {
  it('gives String(us / 1000) for every count of µs up to 3 s, and for large ones', () => {
    for (let us = 0; us <= 3_000_000; us++) {
      if (millisecondsText(us) !== String(us / 1000)) {
        assert.equal(millisecondsText(us), String(us / 1000), `${us} µs`);
      }
    }
    for (const us of [86_400_000_123, 2 ** 50 + 7, 123_456_789_010]) {
      assert.equal(millisecondsText(us), String(us / 1000));
    }
  });
});
