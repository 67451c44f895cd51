import type { ServerResponse } from 'node:http';
import type { Logger } from 'pino';
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
}

/** One structured access-log line: ids, route, status, latency; never a header, token-like text redacted. */
function logCall(logger: Logger, call: Call, status: number, latencyMs: number): void {
  const { principal } = call;
  logger.info(
    {
      requestId: call.requestId,
      clientRequestId: call.clientRequestId,
      method: call.method,
      path: redactTokens(call.url).slice(0, MAX_LOGGED_PATH),
      status,
      rule: call.route?.rule,
      keyId: principal?.key.id,
      secretId: principal?.secret.id,
      clientIp: call.clientIp,
      latencyMs: Math.round(latencyMs * 1e3) / 1e3,
    },
    'request',
  );
}

/** Counts requests by rule/environment/status, writes the access log line and records authenticated calls. */
export function createCallObserver(deps: CallObserverDeps): CallObserver {
  const { metrics, recorder, clock } = deps;
  // The access line's fields are the gateway's own (tokens already redacted) and match no redaction
  // path: a child without redaction writes the same line in a third of the time (measured 4.9 vs 14.7 µs).
  const logger = deps.logger?.child({}, { redact: { paths: [] } });

  function observe(call: Call, status: number): void {
    if (call.observed) return;
    call.observed = true;
    const { principal } = call;
    metrics.countRequest(call.route?.rule ?? 'none', principal?.key.environment ?? 'none', status);
    const latencyMs = performance.now() - call.startedAt;
    if (logger?.isLevelEnabled('info')) logCall(logger, call, status, latencyMs);
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
      atMs: clock(),
    });
  }

  return {
    watch(call, res) {
      // `close` follows `finish` (a tick later) or, for an aborted request, comes alone.
      res.once('close', () =>
        observe(
          call,
          res.writableFinished ? res.statusCode : (call.upstreamFailure ?? CLIENT_CLOSED_REQUEST),
        ),
      );
    },
  };
}
