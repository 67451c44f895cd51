import type { ServerResponse } from 'node:http';
import { outcomeOf } from '@keygate/contracts/gateway';
import { type Logger, pino } from 'pino';
import type { UsageMeter } from '../budget/usage-meter.ts';
import type { RefusedKey } from '../errors.ts';
import { redactTokens } from '../keys/token.ts';
import type { GatewayMetrics } from '../ops/metrics.ts';
import { MAX_LOGGED_PATH, type UsageRecorder } from '../usage/usage-recorder.ts';
import type { Call } from './call.ts';

/** Status recorded for a request the client closed before its response finished (as nginx logs it). */
export const CLIENT_CLOSED_REQUEST = 499;

export interface CallObserverDeps {
  metrics: GatewayMetrics;
  /** Records authenticated calls (usage and API log); absent when no usage is recorded (policies off). */
  recorder?: UsageRecorder;
  /** Billing usage by day and outcome (plans and quotas). */
  meter?: UsageMeter;
  /** Receives one `request` line per answered request (info level), tokens redacted. */
  logger?: Logger;
  clock: () => number;
}

export interface CallObserver {
  /**
   * Counts, logs and records the call once its response is over: with the response status when
   * it finished, 502/504 when the upstream broke off mid-answer, else 499 (the client closed first).
   */
  watch(call: Call, res: ServerResponse): void;
  /** Hands the access lines still held to the logger's stream (at shutdown, or before a fatal exit). */
  flush(): void;
}

/** pino's own fields of a logger (`pino.symbols`): where it writes and the bindings every line starts with. */
interface PinoInternals {
  [pino.symbols.streamSym]: { write(line: string): unknown };
  [pino.symbols.chindingsSym]: string;
}

const json = JSON.stringify;

/** The trace id of a call whose trace is exported (sampled): an API log line names only a trace that exists. */
function sampledTraceIdOf(call: Call): string | undefined {
  const context = call.span?.spanContext();
  return context !== undefined && (context.traceFlags & 1) === 1 ? context.traceId : undefined;
}

/** `,"trace_id":…,"span_id":…` of a traced call (the ids are hex: no escaping needed). */
function traceFields(call: Call): string {
  if (call.span === undefined) return '';
  const { traceId, spanId } = call.span.spanContext();
  return `,"trace_id":"${traceId}","span_id":"${spanId}"`;
}
/** `,"name":value` for a string field, nothing when it is absent (pino drops undefined fields too). */
const field = (name: string, value: string | undefined) =>
  value === undefined ? '' : `,"${name}":${json(value)}`;

/**
 * `String(us / 1000)` for a whole, non-negative count of microseconds below 2^53: the text JSON gives
 * a latency rounded to the µs (`1.5`, `12`, `0.007`), built from integers: V8's
 * conversion of a fractional number into text was a large share of the access line's cost.
 */
export function millisecondsText(us: number): string {
  const whole = Math.floor(us / 1000);
  const fraction = us - whole * 1000;
  if (fraction === 0) return `${whole}`;
  if (fraction % 100 === 0) return `${whole}.${fraction / 100}`;
  if (fraction % 10 === 0) return `${whole}.${fraction < 100 ? '0' : ''}${fraction / 10}`;
  return `${whole}.${fraction < 10 ? '00' : fraction < 100 ? '0' : ''}${fraction}`;
}

/** Recurring values per field (methods, rules, key and secret ids, client addresses) kept encoded. */
const MAX_KEPT_FRAGMENTS = 1_024;

/** `field(name, value)`, encoded once per distinct value (up to MAX_KEPT_FRAGMENTS of them). */
function keptField(name: string): (value: string | undefined) => string {
  const fragments = new Map<string, string>();
  return (value) => {
    if (value === undefined) return '';
    let fragment = fragments.get(value);
    if (fragment === undefined) {
      fragment = field(name, value);
      if (fragments.size < MAX_KEPT_FRAGMENTS) fragments.set(value, fragment);
    }
    return fragment;
  };
}

/**
 * Access lines reach the logger's stream in chunks of about this many characters (above its 12 KiB
 * minLength, so each goes out in one write to the file descriptor, through libuv's thread pool)…
 */
export const ACCESS_CHUNK_CHARS = 64 * 1024;
/** …or at the latest this long (ms) after the first line of a chunk, as the stream's own periodic flush. */
export const ACCESS_FLUSH_MS = 200;

/** Writes access lines; `flush` hands the lines still held to the logger's stream at once. */
export interface AccessLine {
  (call: Call, status: number, latencyMs: number): void;
  flush(): void;
}

/**
 * One structured access-log line per answered request: ids, route, status, latency; never a header,
 * token-like text redacted. The line is the one `logger.info(fields, 'request')` writes (a test holds
 * them equal), assembled directly: pino's walk over the fields object costs several times more.
 * Lines are held and handed to the stream ~64 KiB at a time (or after 200 ms, or on `flush`): the
 * stream (sonic-boom) measures its whole pending buffer (`Buffer.byteLength`, flattening it) on every
 * write, which with a write per line was a large share of a request's logging cost (V8 profile,
 * callgrind); larger chunks also mean fewer writes through libuv's thread pool.
 */
export function createAccessLine(logger: Logger): AccessLine {
  const internals = logger as unknown as PinoInternals;
  const stream = internals[pino.symbols.streamSym];
  const head = `{"level":${logger.levels.values.info},"time":`;
  const bindings = internals[pino.symbols.chindingsSym];
  const method = keptField('method');
  const rule = keptField('rule');
  const keyId = keptField('keyId');
  const secretId = keptField('secretId');
  const clientIp = keptField('clientIp');
  let held: string[] = [];
  let heldChars = 0;
  let timer: NodeJS.Timeout | null = null;
  const flush = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    if (held.length === 0) return;
    const lines = held;
    held = [];
    heldChars = 0;
    stream.write(lines.join(''));
  };
  const accessLine = (call: Call, status: number, latencyMs: number) => {
    const { principal } = call;
    const line =
      `${head}${Date.now()}${bindings}${field('requestId', call.requestId)}${field('clientRequestId', call.clientRequestId)}` +
      `${method(call.method)}${field('path', redactTokens(call.url).slice(0, MAX_LOGGED_PATH))},"status":${status}` +
      `${rule(call.route?.rule)}${keyId(principal?.key.id)}${secretId(principal?.secret.id)}` +
      `${clientIp(call.clientIp)},"latencyMs":${millisecondsText(Math.round(latencyMs * 1e3))}${traceFields(call)},"msg":"request"}\n`;
    held.push(line);
    heldChars += line.length;
    if (heldChars >= ACCESS_CHUNK_CHARS) flush();
    else if (timer === null) {
      timer = setTimeout(flush, ACCESS_FLUSH_MS);
      timer.unref();
    }
  };
  return Object.assign(accessLine, { flush });
}

/**
 * Counts a known key's call for billing and analytics: its outcome, and what it spent (the budget's cost once
 * admitted, charges after the answer included; a refused call spent nothing).
 */
function meterCall(meter: UsageMeter, call: Call, key: RefusedKey, status: number, atMs: number): void {
  const outcome = outcomeOf(call.problem, status);
  if (outcome === null) return;
  const route = call.route;
  const cost = call.budget?.cost ?? (call.problem === undefined && route?.kind === 'proxy' ? route.cost : 0);
  meter.count(key.id, key.identityId, outcome, cost, atMs, key.environment);
}

/** Counts requests by rule/environment/status, writes the access log line and records authenticated calls. */
export function createCallObserver(deps: CallObserverDeps): CallObserver {
  const { metrics, recorder, clock } = deps;
  const { logger } = deps;
  const accessLine = logger ? createAccessLine(logger) : null;

  function observe(call: Call, status: number): void {
    if (call.observed) return;
    call.observed = true;
    const { principal } = call;
    metrics.countRequest(call.route?.rule ?? 'none', principal?.key.environment ?? 'none', status);
    const latencyMs = performance.now() - call.startedAt;
    if (accessLine && logger?.isLevelEnabled('info')) accessLine(call, status, latencyMs);
    // A call refused before its principal existed counts for the real key it named (expired, revoked, wrong secret).
    const meteredKey = principal?.key ?? call.refusedKey;
    if (meteredKey && deps.meter) meterCall(deps.meter, call, meteredKey, status, clock());
    if (!principal || !recorder) return;
    recorder.record({
      requestId: call.requestId,
      keyId: principal.key.id,
      secretId: principal.secret.id,
      method: call.method,
      path: call.url,
      status,
      latencyMs,
      clientIp: principal.clientIp,
      traceId: sampledTraceIdOf(call),
      atMs: clock(),
      bodies: call.bodies && principal.key.environment === 'test' ? call.bodies.finish() : undefined,
    });
  }

  return {
    flush: () => accessLine?.flush(),
    watch(call, res) {
      // `close` follows `finish` (a tick later) or, for an aborted request, comes alone; it comes
      // once, so `on` (no once-wrapper to build and remove again per request).
      res.on('close', () =>
        observe(
          call,
          res.writableFinished ? res.statusCode : (call.upstreamFailure ?? CLIENT_CLOSED_REQUEST),
        ),
      );
    },
  };
}
