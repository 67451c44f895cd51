import type { IncomingMessage } from 'node:http';
import { GatewayError } from '../errors.ts';
import { RATE_LIMIT_WINDOW_SECONDS } from '../rate-limit/key-rate-limiter.ts';
import type { Call } from './call.ts';

/** The request header a test key sends to make the gateway answer as it would in a failure case. */
export const TEST_SCENARIO_HEADER = 'keygate-test-scenario';

export const TEST_SCENARIOS = [
  'rate-limited',
  'upstream-unavailable',
  'upstream-timeout',
  'forbidden',
] as const;
export type TestScenario = (typeof TEST_SCENARIOS)[number];

/**
 * A forced failure: the same problem+json, status and headers as its real counterpart, marked so the
 * refusal does not count it in the rate-limit and auth-failure metrics (alerts watch those).
 */
export class ScenarioError extends GatewayError {}

/** The `RateLimit-Policy` / `RateLimit` pair of a key whose budget is untouched. */
function untouchedBudgetHeaders(call: Call): string[] {
  const limit = call.verified!.key.rateLimit.perMinute;
  return [
    'RateLimit-Policy',
    `"per-key";q=${limit};w=${RATE_LIMIT_WINDOW_SECONDS}`,
    'RateLimit',
    `"per-key";r=${limit};t=${RATE_LIMIT_WINDOW_SECONDS}`,
  ];
}

/**
 * Throws the forced failure a test key asked for with `Keygate-Test-Scenario`, after its key, IP and
 * route passed and before its rate limit is consumed: the key's budget and the upstream are never
 * touched. Live keys never reach here (the header is ignored, and stripped before the upstream).
 * The refusals mirror the real ones in `key-check.ts` (429, 403) and `upstream-pipe.ts` (502, 504):
 * - rate-limited: 429 RATE_LIMITED, `RateLimit` with r=0 and `Retry-After` of a full window;
 * - forbidden: 403 INSUFFICIENT_SCOPE naming the route's scope;
 * - upstream-unavailable / -timeout: 502 / 504 after the rate-limit headers (the real ones come
 *   after the budget was consumed; here it reports the budget as it stands unconsumed, a full window).
 * The upstream cases apply to proxied routes only: the gateway answers its own routes itself.
 */
export function applyTestScenario(call: Call, req: IncomingMessage, upstreamTimeoutMs: number): void {
  const header = req.headers[TEST_SCENARIO_HEADER];
  if (header === undefined) return;
  const scenario = header as TestScenario;
  const route = call.route!;
  switch (scenario) {
    case 'rate-limited': {
      const limit = call.verified!.key.rateLimit.perMinute;
      const wait = RATE_LIMIT_WINDOW_SECONDS;
      call.headers.push(
        'RateLimit-Policy',
        `"per-key";q=${limit};w=${RATE_LIMIT_WINDOW_SECONDS}`,
        'RateLimit',
        `"per-key";r=0;t=${wait}`,
        'Retry-After',
        String(wait),
      );
      throw new ScenarioError(
        'RATE_LIMITED',
        `This key allows ${limit} calls per minute; retry in ${wait} s.`,
        { retryAfter: wait },
      );
    }
    case 'forbidden':
      throw new ScenarioError('INSUFFICIENT_SCOPE', `This call needs the ${route.scope} scope.`, {
        requiredScope: route.scope,
      });
    case 'upstream-unavailable':
    case 'upstream-timeout': {
      if (route.kind !== 'proxy') return;
      call.headers.push(...untouchedBudgetHeaders(call));
      if (scenario === 'upstream-timeout') {
        throw new ScenarioError(
          'UPSTREAM_TIMEOUT',
          `The ${route.upstream} service did not answer within ${upstreamTimeoutMs} ms.`,
        );
      }
      throw new ScenarioError(
        'UPSTREAM_UNAVAILABLE',
        `The ${route.upstream} service could not be reached; retry shortly.`,
      );
    }
    default:
      throw new GatewayError(
        'MALFORMED_REQUEST',
        `Keygate-Test-Scenario must be one of ${TEST_SCENARIOS.join(', ')}.`,
        { header: 'Keygate-Test-Scenario' },
      );
  }
}
