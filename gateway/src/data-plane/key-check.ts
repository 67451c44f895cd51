import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { type IpRules, type ResolvedClient, resolveClient } from '../auth/ip-rules.ts';
import type { KeyVerifier, VerifiedKey } from '../auth/key-verifier.ts';
import {
  assertIpAllowed,
  assertRouteAllowed,
  assertSingleAuthorization,
  checkRequestPath,
  EXPIRY_HEADER,
  expiryNotice,
  parseBearer,
} from '../auth/steps.ts';
import { budgetPolicyField, budgetRefusalOf, budgetRemainingField } from '../budget/budget-answer.ts';
import type { BudgetVerdict } from '../budget/decide.ts';
import type { BudgetLedger } from '../budget/ledger.ts';
import type { BudgetPolicy } from '../budget/policy.ts';
import { GatewayError } from '../errors.ts';
import { forwardedRequestOf, isTrustedPeer } from '../http/forwarded.ts';
import type { ParsedToken } from '../keys/token.ts';
import type { ApiKey } from '../model/model.ts';
import type { GatewayMetrics } from '../ops/metrics.ts';
import { assertUnambiguousFraming } from '../proxy/upstream-headers.ts';
import type { KeyRateLimiter, RateLimitDecision } from '../rate-limit/key-rate-limiter.ts';
import { RATE_LIMIT_WINDOW_SECONDS } from '../rate-limit/key-rate-limiter.ts';
import type { DeprecationHeaders } from '../routes/deprecation.ts';
import { isTestBearer, startBodyCapture } from './body-capture.ts';
import type { Call } from './call.ts';
import { createRefusal } from './refusal.ts';
import { applyTestScenario } from './test-scenario.ts';

/** What calls are metered against beyond the key's own per-minute limit: plans, quotas and credits. */
export interface BudgetGate {
  /** The key's policy; null when none applies (the common case, answered without a lookup). */
  policyOf(key: ApiKey): BudgetPolicy | null | Promise<BudgetPolicy | null>;
  ledger: BudgetLedger;
}

export interface KeyCheckDeps {
  verifier: KeyVerifier;
  rateLimiter: KeyRateLimiter;
  /** Plans, quotas and credits; absent: only the per-key limit applies. */
  budgets?: BudgetGate;
  trustedProxies: IpRules;
  metrics: GatewayMetrics;
  /** The largest expiry-reminder lead time, in days. */
  reminderLeadDays: number;
  clock: () => number;
  logger?: Logger;
  /** The upstream idle timeout (ms), as a forced `upstream-timeout` scenario names it. */
  upstreamTimeoutMs?: number;
  /** Sees every decided budget (alerts): synchronous, no store round trip on the call's path. */
  onBudget?(call: Call, policy: BudgetPolicy, verdict: BudgetVerdict): void;
  /** Sees every refusal for a rate limit, the key's own or a budget's (alerts); synchronous. */
  onRateLimited?(call: Call): void;
}

/** The response header naming what remains of the balance a call spent from. */
export const CREDITS_HEADER = 'Keygate-Credits-Remaining';

/** A budget decided for a call: its policy, the verdict, the call's cost and when it was decided. */
interface SpentBudget {
  policy: BudgetPolicy;
  verdict: BudgetVerdict;
  cost: number;
  nowMs: number;
}

/** What runs once the key pipeline let a call through. */
export type Pass = (call: Call, req: IncomingMessage, res: ServerResponse) => void;

export interface KeyCheck {
  /**
   * Runs the key pipeline for a started call, in order: path checks, deprecation headers, client
   * IP, bearer token, key verification (negative cache, positive cache, else the store's row and
   * its keyed tag; argon2 only for a secret without a tag of this deployment: see key-verifier.ts),
   * IP allowlist, route and scope, rate limit, expiry notice. Refusing is the cheap path: a
   * malformed token never reaches the store, garbage seen before is answered from memory, and the
   * refusal's error carries no stack trace (errors.ts). A test key's `Keygate-Test-Scenario` is answered after route and scope, before
   * the rate limit (see `test-scenario.ts`). On success calls `pass(call)` (the principal and the authorized route set,
   * the gateway's response headers in `call.headers`); on refusal answers problem+json itself.
   * Stays synchronous while everything it needs is in memory.
   */
  run(call: Call, req: IncomingMessage, res: ServerResponse, pass: Pass): void;
  /** Answers a refusal (or an unexpected error) for a call: counted, logged, problem+json with the call's headers. */
  refuse(call: Call, res: ServerResponse, error: unknown): void;
}

/** Adds a deprecated route's `Deprecation`, `Sunset` and `Link` to the call's response headers. */
export function addDeprecationHeaders(call: Call, deprecation: DeprecationHeaders): void {
  call.headers.push(
    'Deprecation',
    deprecation.deprecation,
    'Sunset',
    deprecation.sunset,
    'Link',
    deprecation.link,
  );
}

/** A well-formed bearer header as a connection last sent it: its token, parsed and fingerprinted. */
interface Bearer {
  /** The header's UTF-8. */
  header: Buffer;
  token: string;
  parsed: ParsedToken;
  fingerprint: string;
}

/** What the key check knows of one connection (its socket peer never changes), while it is open. */
interface Connection {
  /** The socket peer as the client: the client address unless a trusted proxy forwards for it. */
  peer: ResolvedClient;
  /** Whether the peer is a configured trusted proxy, whose X-Forwarded-* headers then count. */
  trusted: boolean;
  /**
   * The last well-formed bearer header it sent. Clients keep a connection and a key, so a request
   * that repeats it skips the parse, the checksum and the SHA-256 fingerprint; the verifier's caches,
   * key state and refusals apply exactly as before.
   */
  bearer: Bearer | null;
}

/**
 * Whether two byte strings are equal, in a time that depends on their length only, not on where
 * they first differ: behind a load balancer one connection carries the headers of many clients.
 * OpenSSL's comparison of the headers' UTF-8, not a loop over their characters: in the gateway
 * under load the loop spent half its time in V8's generic property loads (perf). Alone, in a bare
 * server, the loop is no slower: the saving is the gateway's compiled code, not the comparison.
 */
export function sameBytes(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The key pipeline of keygate, framework-free: the data plane runs it, and Express runs it for management routes. */
export function createKeyCheck(deps: KeyCheckDeps): KeyCheck {
  const { verifier, rateLimiter, trustedProxies, clock, budgets } = deps;
  const upstreamTimeoutMs = deps.upstreamTimeoutMs ?? 0;
  const consumeNow = rateLimiter.consumeNow?.bind(rateLimiter);
  const refuse = createRefusal(deps);
  const connections = new WeakMap<object, Connection>();

  function connectionOf(socket: IncomingMessage['socket']): Connection {
    let connection = connections.get(socket);
    if (connection === undefined) {
      connection = {
        peer: resolveClient(socket.remoteAddress, undefined, trustedProxies),
        trusted: isTrustedPeer(socket.remoteAddress, trustedProxies),
        bearer: null,
      };
      connections.set(socket, connection);
    }
    return connection;
  }

  /** The request's bearer token, parsed and fingerprinted (anew unless its connection sent the same header last). */
  function bearerOf(req: IncomingMessage, connection: Connection): Bearer {
    const header = req.headers.authorization;
    // Encoded once: compared with the last header, and kept as the new last one if it differs.
    const bytes = header === undefined ? null : Buffer.from(header, 'utf8');
    const last = connection.bearer;
    if (last !== null && bytes !== null && sameBytes(bytes, last.header)) return last;
    const { token, parsed } = parseBearer(header);
    const bearer = { header: bytes!, token, parsed, fingerprint: verifier.fingerprintOf(token) };
    connection.bearer = bearer;
    return bearer;
  }

  /** The client address: the socket peer, or X-Forwarded-For through trusted proxies only. */
  function setClient(call: Call, req: IncomingMessage, connection: Connection): void {
    const forwarded = req.headers['x-forwarded-for'];
    const client =
      trustedProxies.size === 0 || forwarded === undefined
        ? connection.peer
        : resolveClient(req.socket.remoteAddress, forwarded, trustedProxies);
    call.clientAddress = client.address;
    call.clientIp = client.text;
    if (connection.trusted) call.forwarded = forwardedRequestOf(req.headers);
  }

  /** `RateLimit-Policy` values by quota: a key's is the same on every call. */
  const policies = new Map<number, string>();
  function policyOf(limit: number): string {
    let policy = policies.get(limit);
    if (policy === undefined) {
      policy = `"per-key";q=${limit};w=${RATE_LIMIT_WINDOW_SECONDS}`;
      policies.set(limit, policy);
    }
    return policy;
  }

  /**
   * Sets the rate-limit headers (the key's own limit, then each line of its budget, in one field
   * each); throws 429 when the key's limit, or a line or the balance of its budget, has no room.
   */
  function applyDecision(call: Call, decision: RateLimitDecision, budget?: SpentBudget): void {
    let policy = policyOf(decision.limit);
    let remaining = `"per-key";r=${decision.remaining};t=${decision.resetSeconds}`;
    if (budget && budget.policy.lines.length > 0) {
      policy = budgetPolicyField(policy, budget.policy, budget.verdict);
      remaining = budgetRemainingField(remaining, budget.policy, budget.verdict, budget.nowMs);
    }
    call.headers.push('RateLimit-Policy', policy, 'RateLimit', remaining);
    if (budget?.verdict.credits) call.headers.push(CREDITS_HEADER, String(budget.verdict.credits.remaining));
    if (budget) deps.onBudget?.(call, budget.policy, budget.verdict);
    if (!decision.allowed || budget?.verdict.refusal?.code === 'RATE_LIMITED') deps.onRateLimited?.(call);
    if (!decision.allowed) {
      call.headers.push('Retry-After', String(decision.resetSeconds));
      throw new GatewayError(
        'RATE_LIMITED',
        `This key allows ${decision.limit} calls per minute; retry in ${decision.resetSeconds} s.`,
        { retryAfter: decision.resetSeconds },
      );
    }
    if (budget?.verdict.refusal) {
      const refusal = budgetRefusalOf(budget.policy, budget.verdict, budget.cost, budget.nowMs);
      if (refusal.extensions.retryAfter !== undefined)
        call.headers.push('Retry-After', String(refusal.extensions.retryAfter));
      throw refusal;
    }
    if (budget) call.budget = { policy: budget.policy, cost: budget.cost };
  }

  /** The call's budget when its key has one and its route costs something. */
  function budgetOf(
    call: Call,
  ): { policy: BudgetPolicy | Promise<BudgetPolicy | null>; cost: number } | null {
    const route = call.route!;
    if (budgets === undefined || route.kind !== 'proxy' || route.cost === 0) return null;
    const policy = budgets.policyOf(call.verified!.key);
    return policy === null ? null : { policy, cost: route.cost };
  }

  /** Decides and spends the call's budget through the ledger's promise; null when it has none. */
  function startSpending(call: Call): Promise<SpentBudget | null> | null {
    const budget = budgetOf(call);
    if (budget === null) return null;
    const { cost } = budget;
    const spend = (policy: BudgetPolicy) => {
      const nowMs = clock();
      return budgets!.ledger.spend(policy, cost, nowMs).then((verdict) => ({ policy, verdict, cost, nowMs }));
    };
    // A cached policy (the common case) goes straight to the ledger, without a turn of its own.
    if (!(budget.policy instanceof Promise)) return spend(budget.policy);
    return budget.policy.then((policy) => (policy === null ? null : spend(policy)));
  }

  /**
   * The key's own limit and its budget, decided side by side (on Redis: in the same event-loop turn,
   * so both scripts leave in one pipelined write). When the key's limit refused a call its budget
   * admitted, what the budget spent is given back: a refused call spends nothing.
   */
  function settle(call: Call, decision: RateLimitDecision, spent: SpentBudget | null): void {
    if (!decision.allowed) giveBack(call, spent);
    applyDecision(call, decision, decision.allowed && spent !== null ? spent : undefined);
  }

  /** Gives back what an admitted budget spent for a call refused after all (not awaited). */
  function giveBack(call: Call, spent: SpentBudget | null): void {
    if (spent === null || spent.verdict.refusal !== null) return;
    budgets!.ledger.adjust(spent.policy, -spent.cost, clock()).catch((error: unknown) => {
      deps.logger?.warn(
        { err: error, requestId: call.requestId },
        'giving back a refused call’s budget failed',
      );
    });
  }

  /** Decides and spends the call's budget (asynchronously) after the key's limit allowed it, then answers. */
  function spendBudget(call: Call, decision: RateLimitDecision): Promise<void> | void {
    const spending = decision.allowed ? startSpending(call) : null;
    if (spending === null) return applyDecision(call, decision);
    return spending.then((spent) => settle(call, decision, spent));
  }

  /** The key as the store holds it now (shared stores): re-checked if it changed since it was cached. */
  function applyCurrent(call: Call, current: VerifiedKey): void {
    if (current === call.verified) return;
    assertIpAllowed(current, call.clientAddress, call.clientIp);
    assertRouteAllowed(current.key, call.route!);
    call.verified = current;
    call.principal = { ...call.principal!, key: current.key, secret: current.secret };
  }

  /**
   * Rate limit, (with a shared store) the key's version and the budget, all sent in the same
   * round trip. A key whose version moved is re-checked; its budget was decided on the policy the
   * call started with.
   */
  function consume(call: Call): Promise<void> {
    const { key } = call.verified!;
    const consuming = rateLimiter.consume(key.id, key.rateLimit.perMinute);
    const spending = startSpending(call);
    const confirming = verifier.confirms ? verifier.confirm(call.verified!) : null;
    return Promise.all([consuming, spending, confirming]).then(([decision, spent, current]) => {
      try {
        if (current !== null) applyCurrent(call, current);
      } catch (error) {
        giveBack(call, spent);
        throw error;
      }
      settle(call, decision, spent);
    });
  }

  /** The key's limit and budget decided in memory, when both can be: the whole check stays synchronous. */
  function consumeInMemory(call: Call, key: ApiKey): Promise<void> | undefined {
    const decision = consumeNow!(key.id, key.rateLimit.perMinute);
    const budget = decision.allowed ? budgetOf(call) : null;
    if (budget === null) {
      applyDecision(call, decision);
      return undefined;
    }
    const { policy, cost } = budget;
    // A plan or identity still loading, or a ledger that is not in memory: decided asynchronously.
    if (policy instanceof Promise || budgets!.ledger.spendNow === undefined)
      return Promise.resolve(spendBudget(call, decision));
    const nowMs = clock();
    const verdict: BudgetVerdict = budgets!.ledger.spendNow(policy, cost, nowMs);
    applyDecision(call, decision, { policy, verdict, cost, nowMs });
    return undefined;
  }

  function finish(call: Call, req: IncomingMessage, res: ServerResponse, pass: Pass): void {
    try {
      const notice = expiryNotice(call.verified!.key, clock(), deps.reminderLeadDays);
      if (notice) call.headers.push(EXPIRY_HEADER, notice);
      pass(call, req, res);
    } catch (error) {
      refuse(call, res, error);
    }
  }

  /** Everything after the key is known: allowlist, route and scope, then the rate limit (asynchronous). */
  function authorize(
    call: Call,
    req: IncomingMessage,
    res: ServerResponse,
    verified: VerifiedKey,
    pass: Pass,
  ) {
    try {
      call.verified = verified;
      call.principal = {
        key: verified.key,
        secret: verified.secret,
        clientIp: call.clientIp,
        requestId: call.requestId,
      };
      assertIpAllowed(verified, call.clientAddress, call.clientIp);
      const route = call.match;
      if (!route) throw new GatewayError('ROUTE_NOT_FOUND', `No route for ${call.method} ${call.path}.`);
      call.route = route;
      assertRouteAllowed(verified.key, route);
      if (verified.key.environment === 'test') applyTestScenario(call, req, upstreamTimeoutMs);
      if (consumeNow && !verifier.confirms) {
        // Counted in memory, nothing to confirm: the whole check stays synchronous.
        const pending = consumeInMemory(call, verified.key);
        if (pending === undefined) finish(call, req, res, pass);
        else
          pending.then(
            () => finish(call, req, res, pass),
            (error: unknown) => refuse(call, res, error),
          );
        return;
      }
      consume(call).then(
        () => finish(call, req, res, pass),
        (error: unknown) => refuse(call, res, error),
      );
    } catch (error) {
      refuse(call, res, error);
    }
  }

  return {
    refuse,
    run(call, req, res, pass) {
      try {
        // Before anything reads the body: a test key's bodies are kept for its API log.
        if (isTestBearer(req.headers.authorization)) call.bodies = startBodyCapture(req, res);
        checkRequestPath(call.path, call.url);
        assertUnambiguousFraming(req.headers);
        assertSingleAuthorization(req.rawHeaders);
        if (call.match?.deprecation) addDeprecationHeaders(call, call.match.deprecation);
        const connection = connectionOf(req.socket);
        setClient(call, req, connection);
        const { token, parsed, fingerprint } = bearerOf(req, connection);
        const verifying = verifier.verifyNow(token, parsed, fingerprint);
        if (verifying instanceof Promise) {
          verifying.then(
            (verified) => authorize(call, req, res, verified, pass),
            (error: unknown) => refuse(call, res, error),
          );
        } else authorize(call, req, res, verifying, pass);
      } catch (error) {
        refuse(call, res, error);
      }
    },
  };
}
