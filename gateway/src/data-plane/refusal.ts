import type { ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { GatewayError } from '../errors.ts';
import { answerProblem, toGatewayError } from '../http/error-handler.ts';
import { redactTokens } from '../keys/token.ts';
import type { GatewayMetrics } from '../ops/metrics.ts';
import { applyCallHeaders, type Call } from './call.ts';
import { ScenarioError } from './test-scenario.ts';

/**
 * Answers a refusal (or an unexpected error) for a call: 401/403 counted by reason and 429 counted,
 * 5xx causes logged as errors (refusals at debug), problem+json with the call's headers.
 */
export function createRefusal(deps: { metrics: GatewayMetrics; logger?: Logger }) {
  const { metrics, logger } = deps;
  return function refuse(call: Call, res: ServerResponse, error: unknown): void {
    const problem = toGatewayError(error);
    call.problem = problem.code;
    if (problem.refusedKey !== undefined) call.refusedKey = problem.refusedKey;
    // A forced test scenario is no real failure: the alerts on these counters and logs must not see it.
    const isForced = error instanceof ScenarioError;
    if (isForced) {
      // counted as a request like any other (countRequest), nothing more
    } else if (problem.code === 'RATE_LIMITED') metrics.rateLimited.inc();
    else if (problem.status === 401 || problem.status === 403)
      metrics.authFailures.inc({ reason: problem.code });
    if (problem.status >= 500 && !isForced) {
      const cause = error instanceof GatewayError ? (error.cause ?? error) : error;
      logger?.error(
        {
          err: cause,
          requestId: call.requestId,
          clientRequestId: call.clientRequestId,
          method: call.method,
          path: redactTokens(call.path),
        },
        'request failed',
      );
    } else if (logger?.isLevelEnabled('debug')) {
      logger.debug(
        { code: problem.code, requestId: call.requestId, clientRequestId: call.clientRequestId },
        'request refused',
      );
    }
    if (!res.headersSent) applyCallHeaders(res, call);
    answerProblem(res, problem, call.requestId);
  };
}
