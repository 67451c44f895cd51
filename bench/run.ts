// `pnpm bench`: starts every process it needs, drives load with wrk (interleaved rounds), measures
// each proxy's CPU per request (user + system of all its threads from /proc/<pid>/stat, plus the
// redis-server for Redis mode, every Cluster node for Cluster mode) beside rps / p50 / p99, judges the targets on the median of the
// per-round CPU ratios, and writes bench/RESULTS.md. Child processes are stopped on success, failure
// and Ctrl-C. Settings (environment, all optional):
//   BENCH_SECONDS (5) per run, BENCH_ROUNDS (5), BENCH_WARMUP_SECONDS (2) per target before round 1,
//   BENCH_RUN_WARMUP_SECONDS (1) of unmeasured load right before every measured run,
//   BENCH_GATEWAY_LOG_LEVEL (info, the gateway's default; access lines go to a file
//   in the bench's temp directory),
//   BENCH_ONLY=id,id… to run some scenarios only (nothing is written then; `storefront-lighthouse`
//   names the storefront's Lighthouse rows),
//   BENCH_SMOKE=1: one round of one second, no warm-up, nothing written (does every scenario start
//   and print its row and ratios? its figures mean nothing),
//   BENCH_GATEWAY_NODE_ARGS='--cpu-prof --cpu-prof-dir=DIR' to profile the gateways (and
//   BENCH_PEER_NODE_ARGS the Fastify peers),
//   BENCH_KEEP=1 to keep the temp directory (each gateway's data and stdout log) afterwards,
//   BENCH_CPU=1 to also report each gateway's garbage-collection pauses per request (from /metrics),
//   BENCH_MAX_STEAL (5, in %) and BENCH_STEAL_RETRIES (2): a run during which the hypervisor took
//   more than that share of the machine's CPU (steal) is measured again, up to that many times, and
//   the attempt with the least steal is kept.
//   BENCH_SOAK=1 (BENCH_SOAK_SECONDS, 600) to also soak the memory-mode gateway at steady load and
//   judge its RSS growth after the first minute (see lib/memory.ts).
import { join } from 'node:path';
import { Redis } from 'ioredis';
import {
  DEFAULT_IDENTITY_ALGORITHM,
  IDENTITY_ALGORITHMS,
  type IdentityAlgorithm,
} from '../packages/identity/src/index.ts';
import {
  commerceScenarios,
  commerceTargets,
  LARGE_CATALOGUE,
  prepareMixedRun,
  startLargeCommerce,
  withCommerceCpu,
} from './commerce/bench-commerce.ts';
import { cpuMicrosPerRequest, machineCpuTimes, stealShareSince, stealSince } from './lib/cpu.ts';
import { type MemoryWatch, soak, watchMemory } from './lib/memory.ts';
import { killAllNow, pinBenchToLoadCores, ROOT, stopAll, tempDir } from './lib/processes.ts';
import { runRefusalChecks } from './lib/refusal-checks.ts';
import { type RefusalTokens, writeRefusalTokens } from './lib/refusals.ts';
import {
  collectFacts,
  formatFacts,
  formatPaired,
  formatRow,
  formatTarget,
  median,
  type Paired,
  pairedP50Difference,
  pairedRatio,
  type Summary,
  summarize,
  TABLE_HEAD,
  TARGET_HEAD,
  type Target,
  target,
  writeResults,
} from './lib/report.ts';
import { measureAssertionCost } from './lib/signing.ts';
import { type BenchGateway, pidOf, type Stack, startStack, stopTopologies } from './lib/stack.ts';
import { createLoadRunner, cyclingTokensScript, type Measurement } from './lib/wrk.ts';
import { benchStorefront } from './storefront/bench-storefront.ts';

const SMOKE = process.env.BENCH_SMOKE === '1';
const SECONDS = Number(process.env.BENCH_SECONDS ?? (SMOKE ? 1 : 5));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (SMOKE ? 1 : 5));
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? (SMOKE ? 0 : 2));
/**
 * Each target sits idle while the others run, and V8 shrinks an idle process's heap: the first second
 * of load after such a pause costs a process far more garbage collection and CPU per request than the
 * seconds after. The unmeasured second before each run keeps that out of every target's figures alike.
 */
const RUN_WARMUP_SECONDS = Number(process.env.BENCH_RUN_WARMUP_SECONDS ?? (SMOKE ? 0 : 1));
const GATEWAY_LOG_LEVEL = process.env.BENCH_GATEWAY_LOG_LEVEL ?? 'info';
const ONLY = process.env.BENCH_ONLY?.split(',').filter(Boolean) ?? null;
const GC = process.env.BENCH_CPU === '1';
const MAX_STEAL = Number(process.env.BENCH_MAX_STEAL ?? 5) / 100;
const STEAL_RETRIES = Number(process.env.BENCH_STEAL_RETRIES ?? (SMOKE ? 0 : 2));
const SOAK_SECONDS = process.env.BENCH_SOAK === '1' ? Number(process.env.BENCH_SOAK_SECONDS ?? 600) : 0;
const PRODUCTS = 10_000;
const SMALL_KEYS = 100;
const LARGE_KEYS = 100_000;
const RESULTS_FILE = join(ROOT, 'bench', 'RESULTS.md');

const ROUTE = '/v2/catalog/products';
const CATALOG = '/v2/catalog/products?limit=50';
const GRAPHQL_QUERY =
  '{ products(channel: WEB_DE, first: 50) { sku name taxClass price { amount net vat gross currency } stock { available } } }';
const GRAPHQL = `/v2/graphql?query=${encodeURIComponent(GRAPHQL_QUERY)}`;

interface Scenario {
  id: string;
  label: string;
  url: string;
  headers: Record<string, string>;
  connections: number;
  /** Processes whose CPU counts with the server's own (Redis mode: its redis-server). */
  alsoPids?: number[];
  /** Refusal scenarios: a file of tokens sent one per request (see lib/wrk.ts); every answer a 401. */
  tokensFile?: string;
  /** The status the pre-load check expects (200 unless said). */
  expectStatus?: number;
  /** wrk's request script (see lib/wrk.ts), instead of the same request again and again. */
  script?: string;
  /** Keys the script calls in turn besides `headers`' one (for the argon2 target's count). */
  cycledKeys?: number;
}

const started = Date.now();
function log(line: string): void {
  const seconds = ((Date.now() - started) / 1000).toFixed(0).padStart(4);
  process.stderr.write(`[bench ${seconds}s] ${line}\n`);
}

function scenariosOf(stack: Stack, refusals: RefusalTokens): Scenario[] {
  const { gateways: gw, tokens } = stack;
  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
  const proxies: Array<[string, string, string, Record<string, string>]> = [
    ['direct', 'direct to the no-op upstream', stack.noopUrl, {}],
    ['pipe', 'raw node:http keep-alive pipe proxy', stack.pipeUrl, {}],
    ['pipe-sign', 'raw pipe + signed identity, nothing else', stack.signingPipeUrl, {}],
    ['pipe-undici', 'raw pipe with undici as the client', stack.undiciPipeUrl, {}],
    ['express-hpm', 'Express 5 + http-proxy-middleware only', stack.expressProxyUrl, {}],
    [
      'peer',
      'peer: Fastify 5 + reply-from + rate-limiter-flexible (signs and logs nothing)',
      stack.peerUrl,
      bearer(tokens.peer),
    ],
    ['off', 'gateway, policies off', gw.policiesOff.url, {}],
    ['memory', 'gateway, memory mode (100 keys)', gw.memory.url, bearer(tokens.memory)],
    ['redis', 'gateway, Redis mode', gw.redis.url, bearer(tokens.redis)],
    ['cluster', 'gateway, Redis Cluster mode (3 masters)', gw.cluster.url, bearer(tokens.cluster)],
  ];
  const channel = { 'X-Channel': 'WEB_DE' };
  const withRedis = (id: string) => {
    if (id.startsWith('redis')) return { alsoPids: [stack.redisPid] };
    if (id.startsWith('cluster')) return { alsoPids: stack.clusterPids };
    return {};
  };
  const loaded: Scenario[] = proxies.map(([id, label, url, headers]) => ({
    id,
    label,
    url: url + ROUTE,
    headers,
    connections: 32,
    ...withRedis(id),
  }));
  /** Adds a 32-connection scenario right after the one named `after`. */
  const insertAfter = (after: string, [id, label, url, headers]: (typeof proxies)[number]) =>
    loaded.splice(loaded.findIndex((scenario) => scenario.id === after) + 1, 0, {
      id,
      label,
      url: url + ROUTE,
      headers,
      connections: 32,
      ...withRedis(id),
    });
  // Request binding, policies off: the gateway's own work over the signing reference (pipe-sign).
  insertAfter('off', [
    'off-request',
    'gateway, policies off, KEYGATE_IDENTITY_BINDING=request',
    gw.policiesOffRequest.url,
    {},
  ]);
  // A key on a plan (#47): a minute limit, a day and a month quota and credits, beside the same
  // gateway's key with only its per-minute limit.
  insertAfter('memory', [
    'memory-plan',
    'gateway, memory mode: a key on a plan (limit, 2 quotas, credits)',
    gw.memory.url,
    bearer(tokens.memoryPlan),
  ]);
  // Policies off once more, right after memory mode: the same work as the run before memory mode, so
  // the two show what a pair of runs differs by within a round alone (see noiseOf).
  insertAfter('memory', [
    'off-again',
    'gateway, policies off (again, after memory mode)',
    gw.policiesOff.url,
    {},
  ]);
  // The judged peers (#36): Fastify with its default production logger, as keygate as shipped logs;
  // and the same with its rate limit in the bench's redis-server, beside keygate's Redis mode.
  loaded.splice(loaded.findIndex((scenario) => scenario.id === 'peer') + 1, 0, {
    id: 'peer-logged',
    label: 'peer with logger: true (Fastify default production logging)',
    url: stack.peerLoggedUrl + ROUTE,
    headers: bearer(tokens.peer),
    connections: 32,
  });
  loaded.splice(loaded.findIndex((scenario) => scenario.id === 'redis') + 1, 0, {
    id: 'redis-plan',
    label: 'gateway, Redis mode: a key on a plan (limit, 2 quotas, credits)',
    url: gw.redis.url + ROUTE,
    headers: bearer(tokens.redisPlan),
    connections: 32,
    alsoPids: [stack.redisPid],
  });
  loaded.splice(loaded.findIndex((scenario) => scenario.id === 'redis') + 1, 0, {
    id: 'peer-redis',
    label: 'peer with logger: true and RateLimiterRedis (ioredis)',
    url: stack.peerRedisUrl + ROUTE,
    headers: bearer(tokens.peer),
    connections: 32,
    alsoPids: [stack.redisPid],
  });
  // Refusals on the memory-mode gateway, every request a token it never saw (#36).
  loaded.splice(
    loaded.findIndex((scenario) => scenario.id === 'memory') + 1,
    0,
    {
      id: 'refuse-unknown',
      label: 'gateway, memory mode: unique unknown tokens (401)',
      url: gw.memory.url + ROUTE,
      headers: bearer(refusals.unknownSample),
      connections: 32,
      tokensFile: refusals.unknownFile,
      expectStatus: 401,
    },
    {
      id: 'refuse-wrong',
      label: 'gateway, memory mode: unique wrong secrets on a real lookup (401)',
      url: gw.memory.url + ROUTE,
      headers: bearer(refusals.wrongSample),
      connections: 32,
      tokensFile: refusals.wrongFile,
      expectStatus: 401,
    },
  );
  // The logged peer refusing the same unique well-formed tokens (a SHA-256 and a Map miss): the
  // refusal keygate's is held to (#44).
  loaded.splice(loaded.findIndex((scenario) => scenario.id === 'peer-logged') + 1, 0, {
    id: 'peer-refuse',
    label: 'peer with logger: true: the same unique unknown tokens (401)',
    url: stack.peerLoggedUrl + ROUTE,
    headers: bearer(refusals.unknownSample),
    connections: 32,
    tokensFile: refusals.unknownFile,
    expectStatus: 401,
  });
  // A test key: the sandbox keeps each call's request and response bodies in its request log, which
  // live keys (the production path the targets judge) never pay for. On a gateway of its own, so the
  // bodies it holds do not weigh on the collections of the memory-mode runs after it in a round.
  insertAfter('off-again', [
    'memory-test',
    'gateway, memory mode, test key (sandbox: bodies logged; a gateway of its own)',
    gw.sandbox.url,
    bearer(tokens.sandbox),
  ]);
  // The full gateway once more, without its per-request logs: what the access line and the API log
  // row cost a request (see loggingOf).
  insertAfter('memory-test', [
    'unlogged',
    'gateway, memory mode, no access or API log lines (bench only)',
    gw.unlogged.url,
    bearer(tokens.unlogged),
  ]);
  // The full gateway without outcome counting (no usage meter), memory and Redis: what analytics cost.
  insertAfter('unlogged', [
    'uncounted',
    'gateway, memory mode, no outcome counting (bench only)',
    gw.uncounted.url,
    bearer(tokens.uncounted),
  ]);
  insertAfter('redis', [
    'redis-uncounted',
    'gateway, Redis mode, no outcome counting (bench only)',
    gw.redisUncounted.url,
    bearer(tokens.redisUncounted),
  ]);
  // Tracing on (OTLP to a sink that keeps nothing): 1 % of the calls sampled, then every call.
  insertAfter('uncounted', [
    'traced-1pct',
    'gateway, memory mode, traced (parentbased_traceidratio 0.01)',
    gw.tracedSampled.url,
    bearer(tokens.tracedSampled),
  ]);
  insertAfter('traced-1pct', [
    'traced-all',
    'gateway, memory mode, traced (every call sampled and exported)',
    gw.tracedAll.url,
    bearer(tokens.tracedAll),
  ]);
  // The logged peer with the OpenTelemetry Node SDK and its auto-instrumentations, sampled as traced-1pct.
  insertAfter('traced-all', [
    'peer-traced',
    'peer with logger: true + OpenTelemetry Node SDK, auto-instrumentations (parentbased_traceidratio 0.01)',
    stack.peerTracedUrl,
    bearer(tokens.peer),
  ]);
  // The A/A pair (#44): memory mode measured a second time in each round, away from its first run;
  // their ratio is the noise every other ratio of the run carries.
  insertAfter('peer-traced', [
    'memory-again',
    'gateway, memory mode (100 keys), again (A/A)',
    gw.memory.url,
    bearer(tokens.memory),
  ]);
  return [
    ...loaded,
    {
      id: 'memory100k',
      label: 'gateway, memory mode (100k keys)',
      url: gw.memory100k.url + ROUTE,
      headers: bearer(tokens.memory100k),
      connections: 32,
    },
    // 100k keys with a day of minute buckets in the store, every key called in turn (#45): the usage
    // meter's in-memory state covers tens of thousands of keys, not one.
    {
      id: 'memory100k-buckets',
      label: 'gateway, memory mode (100k keys, a day of minute buckets), every key in turn',
      url: gw.memory100kBuckets.url + ROUTE,
      headers: bearer(tokens.memory100kBuckets),
      connections: 32,
      script: cyclingTokensScript(stack.memory100kBucketsTokens),
      cycledKeys: LARGE_KEYS - 1,
    },
    ...proxies.map(([id, label, url, headers]) => ({
      id: `${id}-c1`,
      label,
      url: url + ROUTE,
      headers,
      connections: 1,
      ...withRedis(id),
    })),
    {
      id: 'express',
      label: 'bare Express JSON route, direct',
      url: stack.expressUrl + ROUTE,
      headers: {},
      connections: 32,
    },
    {
      id: 'express-gw',
      label: 'bare Express JSON route, via gateway',
      url: gw.commerce.url + ROUTE,
      headers: { ...bearer(tokens.commerceTest), ...channel },
      connections: 32,
    },
    {
      id: 'catalog',
      label: 'commerce catalogue (50 of 10,000), via gateway',
      url: gw.commerce.url + CATALOG,
      headers: { ...bearer(tokens.commerceLive), ...channel },
      connections: 32,
    },
    {
      id: 'graphql',
      label: 'commerce GraphQL products (50), via gateway',
      url: gw.commerce.url + GRAPHQL,
      headers: bearer(tokens.commerceLive),
      connections: 32,
    },
  ];
}

/** One request per scenario must answer as expected (200, a refusal 401) before any load. */
async function checkScenarios(scenarios: readonly Scenario[]): Promise<void> {
  for (const scenario of scenarios) {
    const response = await fetch(scenario.url, { headers: scenario.headers });
    const body = await response.text();
    if (response.status !== (scenario.expectStatus ?? 200)) {
      throw new Error(`${scenario.id}: ${scenario.url} answered ${response.status}: ${body.slice(0, 300)}`);
    }
  }
}

/** The sum over every series (any labels) of a metric on a gateway's `/metrics`. */
async function metricSum(origin: string, metric: string): Promise<number> {
  const text = await (await fetch(`${origin}/metrics`)).text();
  return text
    .split('\n')
    .filter((line) => line.startsWith(metric))
    .reduce((sum, line) => sum + Number(line.split(' ').pop()), 0);
}

/** argon2 verifications a gateway counted (`keygate_argon2_verifications_total`, every result). */
function argon2Verifications(gateway: BenchGateway): Promise<number> {
  return metricSum(gateway.url, 'keygate_argon2_verifications_total');
}

/**
 * CPU µs per request of each scenario's processes (all threads), one entry per round in round order
 * (null where it could not be read), so two scenarios' figures of one round can be divided.
 */
const cpuRuns = new Map<string, Array<number | null>>();
/** Garbage-collection pause µs per request of each gateway scenario, per round (BENCH_CPU=1 only). */
const gcRuns = new Map<string, number[]>();
/** Commands the bench's redis-server processed per request of each Redis-mode scenario, per round. */
const redisCommandRuns = new Map<string, number[]>();
/** The bench's redis-server, once the stack runs: read for its command count around Redis runs. */
const commandCounter: { redis: Redis | null } = { redis: null };

/**
 * Script calls (EVAL, EVALSHA) the bench's redis-server has run since it started, from
 * `INFO commandstats`: the gateway's calls to Redis on the request path are all scripts (each
 * carrying a turn's calls), while the commands scripts run inside are counted apart, by name.
 */
async function redisCommands(): Promise<number> {
  const stats = (await commandCounter.redis?.info('commandstats')) ?? '';
  let calls = 0;
  for (const [, count] of stats.matchAll(/^cmdstat_eval[a-z_]*:calls=(\d+)/gm)) calls += Number(count);
  return calls;
}

/**
 * Seconds a gateway has spent in garbage-collection pauses since it started: the sum over every kind
 * of its `nodejs_gc_duration_seconds` (prom-client's default metrics, on `/metrics`).
 */
function gcSeconds(origin: string): Promise<number> {
  return metricSum(origin, 'nodejs_gc_duration_seconds_sum');
}

/** Appends one round's figure to a scenario's list in `runs`. */
function addRound<T>(runs: Map<string, T[]>, id: string, value: T): void {
  runs.set(id, [...(runs.get(id) ?? []), value]);
}

/** A scenario's CPU per request over the rounds it was read in: median, lowest, highest; null if never. */
function cpuOf(id: string): Paired | null {
  const values = (cpuRuns.get(id) ?? []).filter((value): value is number => value !== null);
  return values.length
    ? { value: median(values), low: Math.min(...values), high: Math.max(...values) }
    : null;
}

/**
 * a's CPU per request ÷ b's, taken in each round both were read in, then the median (as `pairedRatio`
 * does for rps): below 1, a costs the machine less per request than b. Null unless both were read.
 */
function cpuRatio(a: string, b: string): Paired | null {
  const x = cpuRuns.get(a) ?? [];
  const y = cpuRuns.get(b) ?? [];
  const ratios = x.flatMap((value, round) => {
    const other = y[round];
    return value !== null && other !== null && other !== undefined && other > 0 ? [value / other] : [];
  });
  return ratios.length
    ? { value: median(ratios), low: Math.min(...ratios), high: Math.max(...ratios) }
    : null;
}

/** CPU per request of every scenario, and (BENCH_CPU=1) the gateways' garbage-collection pauses. */
function cpuSection(scenarios: readonly Scenario[]): string[] {
  const rows = scenarios.flatMap((s) => {
    const cpu = cpuOf(s.id);
    return cpu === null ? [] : [`- ${s.label}, ${s.connections} conn: ${formatPaired(cpu, 1, 'µs')}`];
  });
  const gcRows = scenarios.flatMap((s) => {
    const values = gcRuns.get(s.id);
    if (values === undefined) return [];
    const rounds = values.map((value) => value.toFixed(1)).join(' / ');
    return [`- ${s.label}, ${s.connections} conn: ${median(values).toFixed(1)} µs (rounds ${rounds})`];
  });
  return [
    'CPU per request (user + system of every thread of the proxy process, plus redis-server for Redis mode and all three for Cluster mode), median over rounds:',
    ...rows,
    ...(GC
      ? [
          "Of which garbage-collection pauses, per request (each gateway's nodejs_gc_duration_seconds):",
          ...gcRows,
        ]
      : []),
  ];
}

/**
 * The identity assertion: signed once per key and half-lifetime in the default key binding, once per
 * request in request binding (policies off included); the raw pipe signs nothing. Its CPU cost, beside
 * the budget the policies-off target leaves.
 */
function assertionSection(
  costs: ReadonlyArray<[IdentityAlgorithm, { inlineMicros: number; offThreadMicros: number }]>,
): string[] {
  const pipe = cpuOf('pipe');
  const budget = pipe ? pipe.value * (1.18 - 1) : null;
  return [
    `Identity assertion (a JWT; ${DEFAULT_IDENTITY_ALGORITHM} with new keys; once per key and half-lifetime ` +
      'in key binding, once per request in request binding; the raw pipe signs nothing):',
    ...costs.map(
      ([algorithm, cost]) =>
        `- CPU per ${algorithm} signature, the gateway's signer: ${cost.inlineMicros.toFixed(1)} µs inline, ` +
        `${cost.offThreadMicros.toFixed(1)} µs in its signing worker with 16 in flight (all threads)`,
    ),
    ...(budget === null || pipe === null
      ? []
      : [
          `- policies off ÷ raw pipe ≤ 1.18 in CPU per request leaves the gateway ${budget.toFixed(1)} µs over ` +
            `the raw pipe's ${pipe.value.toFixed(1)} µs, for everything it adds`,
        ]),
  ];
}

/** Runs measured again for steal, and runs kept although every attempt had more than MAX_STEAL. */
const stealRepeats = { repeated: 0, keptAbove: 0 };

interface Attempt {
  result: Measurement;
  micros: number | null;
  /** Garbage-collection pause µs per request (gateways, BENCH_CPU=1). */
  gcMicros: number | null;
  steal: number;
}

async function measure(
  scenarios: readonly Scenario[],
  gatewayOrigins: ReadonlySet<string>,
  memory: MemoryWatch,
): Promise<Map<string, Summary>> {
  const load = createLoadRunner(tempDir('keygate-bench-wrk-'));
  if (WARMUP_SECONDS > 0) {
    log(`warm-up: ${WARMUP_SECONDS} s per target`);
    for (const scenario of scenarios.filter((s) => s.connections > 1)) {
      await load({ ...scenario, seconds: WARMUP_SECONDS });
    }
  }
  const attempt = async (scenario: Scenario): Promise<Attempt> => {
    if (RUN_WARMUP_SECONDS > 0) await load({ ...scenario, seconds: RUN_WARMUP_SECONDS });
    const run = () => withCommerceCpu(scenario, () => load({ ...scenario, seconds: SECONDS }));
    const pid = pidOf(scenario.url);
    const origin = new URL(scenario.url).origin;
    // Scraped outside the CPU window: the scrapes are not the run's work.
    const gcBefore = GC && pid !== undefined && gatewayOrigins.has(origin) ? await gcSeconds(origin) : null;
    const commandsBefore = scenario.id.startsWith('redis') ? await redisCommands() : null;
    const before = machineCpuTimes();
    const { result, micros } =
      pid === undefined
        ? { result: await run(), micros: null }
        : await cpuMicrosPerRequest([pid, ...(scenario.alsoPids ?? [])], run);
    const steal = stealShareSince(before);
    if (commandsBefore !== null && result.requests > 0)
      addRound(redisCommandRuns, scenario.id, ((await redisCommands()) - commandsBefore) / result.requests);
    const gcMicros =
      gcBefore === null || result.requests === 0
        ? null
        : (((await gcSeconds(origin)) - gcBefore) * 1e6) / result.requests;
    return { result, micros, gcMicros, steal };
  };
  const runs = new Map<string, Measurement[]>(scenarios.map((s) => [s.id, []]));
  for (let round = 0; round < ROUNDS; round++) {
    log(`round ${round + 1}/${ROUNDS}: ${scenarios.length} runs of ${SECONDS} s`);
    // Each round starts one scenario further on, so no scenario always follows the same one.
    const offset = (round * Math.ceil(scenarios.length / ROUNDS)) % scenarios.length;
    const order = [...scenarios.slice(offset), ...scenarios.slice(0, offset)];
    for (const scenario of order) {
      let kept = await attempt(scenario);
      for (let retry = 0; kept.steal > MAX_STEAL && retry < STEAL_RETRIES; retry++) {
        log(
          `${scenario.id}: ${(kept.steal * 100).toFixed(1)} % CPU steal during the run; measuring it again`,
        );
        stealRepeats.repeated++;
        const again = await attempt(scenario);
        if (again.steal < kept.steal) kept = again;
      }
      if (kept.steal > MAX_STEAL) stealRepeats.keptAbove++;
      runs.get(scenario.id)!.push(kept.result);
      memory.afterRun(scenario.id, pidOf(scenario.url));
      addRound(cpuRuns, scenario.id, kept.micros);
      if (kept.gcMicros !== null) addRound(gcRuns, scenario.id, kept.gcMicros);
    }
  }
  return new Map([...runs].map(([id, measured]) => [id, summarize(measured)]));
}

/** a ÷ b in rps, taken within each round, then the median (`pairedRatio`); null unless both ran. */
function ratio(results: Map<string, Summary>, a: string, b: string): Paired | null {
  const x = results.get(a);
  const y = results.get(b);
  return x && y ? pairedRatio(x, y) : null;
}

/** a's p50 − b's, taken within each round, then the median; null unless both ran. */
function addedP50(results: Map<string, Summary>, a: string, b: string): Paired | null {
  const x = results.get(a);
  const y = results.get(b);
  return x && y ? pairedP50Difference(x, y) : null;
}

/**
 * How far the machine itself moved during the run: the same no-op upstream, measured directly, in
 * each round. Ratios within a round divide the drift out, but not what changes inside one round.
 */
function noiseOf(results: Map<string, Summary>): string[] {
  const direct = results.get('direct');
  const lines: string[] = [];
  if (direct && direct.rounds.length >= 2) {
    const low = Math.min(...direct.rounds);
    const high = Math.max(...direct.rounds);
    lines.push(
      `- machine drift: direct to the no-op upstream (the same work every round) ran at ${Math.round(low)} to ` +
        `${Math.round(high)} rps over the rounds, highest ÷ lowest ${(high / low).toFixed(2)}`,
    );
  }
  const aa = cpuRatio('memory-again', 'memory');
  if (aa !== null) {
    lines.push(
      `- A/A: memory mode measured again in the same round ÷ memory mode, CPU per request: ${formatPaired(aa)} ` +
        '(the same work twice; expected within 0.95–1.05, and any ratio of this run is no surer than this one)',
    );
  }
  const again = ratio(results, 'off-again', 'off');
  if (again !== null) {
    lines.push(
      `- noise within a round: policies off measured again, after memory mode, ÷ policies off: ` +
        `${formatPaired(again)} (the same work: the spread any ratio of two runs carries)`,
    );
  }
  const againCpu = cpuRatio('off-again', 'off');
  if (againCpu !== null) {
    lines.push(`- the same in CPU per request: ${formatPaired(againCpu)}`);
  }
  return lines;
}

/**
 * The targets, judged on CPU per request (the median of the per-round ratios), each with its rps
 * ratio beside it: on a machine shared with other work, rps ratios of two runs of the same code
 * swing too far to show a 10 % bound, CPU per request far less.
 */
function targetsOf(
  results: Map<string, Summary>,
  verifications: Map<BenchGateway, { count: number; secrets: number }>,
): Target[] {
  const targets: Target[] = [];
  const add = (
    name: string,
    value: number | Paired | null,
    op: Target['op'],
    bound: number,
    unit = '',
    rps: Paired | null = null,
  ) => {
    if (value !== null) targets.push({ ...target(name, value, op, bound, unit), rps });
  };
  const cpuTarget = (name: string, a: string, b: string, bound: number) =>
    add(`${name}, CPU per request`, cpuRatio(a, b), '<=', bound, '', ratio(results, a, b));
  // Like for like (#36): keygate as shipped (access line + API log) ÷ the peer as Fastify ships
  // (logger: true); the unlogged pair and full ÷ policies off are rows without targets (rowsOf).
  cpuTarget('keygate as shipped (memory) ÷ logged peer', 'memory', 'peer-logged', 0.85);
  add('keygate as shipped (memory) ÷ logged peer, rps', ratio(results, 'memory', 'peer-logged'), '>=', 1.0);
  cpuTarget('policies off ÷ raw node:http pipe', 'off', 'pipe', 1.18);
  cpuTarget('request binding, policies off ÷ signing reference', 'off-request', 'pipe-sign', 1.1);
  cpuTarget('Redis mode ÷ logged Redis peer (each with redis-server)', 'redis', 'peer-redis', 1.1);
  // Plans (#47): a key on a plan costs about what a key with only its minute limit costs.
  cpuTarget('key on a plan ÷ key with a minute limit only (memory)', 'memory-plan', 'memory', 1.05);
  cpuTarget('key on a plan ÷ key with a minute limit only (Redis)', 'redis-plan', 'redis', 1.1);
  // Its budget's script leaves in the same pipelined write as the key's count: script calls per call
  // (each carries a turn's calls together) may grow by one at most, round trips not at all.
  const commandsOf = (id: string) => median(redisCommandRuns.get(id) ?? []);
  if (redisCommandRuns.has('redis-plan') && redisCommandRuns.has('redis'))
    add(
      'Redis script calls per call: key on a plan − key with a minute limit only',
      commandsOf('redis-plan') - commandsOf('redis'),
      '<=',
      1,
      ` (${commandsOf('redis-plan').toFixed(3)} against ${commandsOf('redis').toFixed(3)})`,
    );
  // A refusal is held to the peer's refusal of the same tokens (#44); ÷ an admission is a row.
  cpuTarget(
    'refusal of a unique unknown token ÷ the logged peer refusing it',
    'refuse-unknown',
    'peer-refuse',
    1.0,
  );
  cpuTarget('100k keys ÷ 100 keys', 'memory100k', 'memory', 1.05);
  cpuTarget('admitted call with outcome counting ÷ without (memory)', 'memory', 'uncounted', 1.03);
  cpuTarget('admitted call with outcome counting ÷ without (Redis)', 'redis', 'redis-uncounted', 1.03);
  cpuTarget('traced, 1 % sampled ÷ untraced (memory)', 'traced-1pct', 'memory', 1.1);
  cpuTarget(
    'traced at 1 % ÷ the logged peer with the OpenTelemetry Node SDK at 1 %',
    'traced-1pct',
    'peer-traced',
    0.85,
  );
  // Bound on rps; its CPU per request (every redis-server of the Cluster counted) is in clusterOf.
  add('Cluster ÷ Redis, rps', ratio(results, 'cluster', 'redis'), '>=', 0.85);
  add(
    'added p50 at 1 connection (memory − direct)',
    addedP50(results, 'memory-c1', 'direct-c1'),
    '<=',
    0.3,
    'ms',
  );
  // The load keys carry the tag of the gateways' tag key, as keys made through the API or the CLI
  // do: a matching tag is the verification, so no call of the run may need argon2 (#36).
  for (const [gateway, { count, secrets }] of verifications) {
    add(`argon2 verifications, ${gateway.name} (${secrets} tagged secrets called)`, count, '=', 0);
  }
  return targets;
}

/**
 * The signing reference, measured in the same run: the raw pipe that does nothing more than sign
 * each request's identity assertion, as request binding does. Request binding's policies-off gateway
 * is held to it (a target); these lines show what the per-request signature alone costs the raw pipe.
 */
function signingReferenceOf(results: Map<string, Summary>): string[] {
  const lines: string[] = [];
  const signed = ratio(results, 'pipe-sign', 'pipe');
  if (signed !== null) {
    lines.push(
      `- raw pipe + signed identity ÷ raw pipe, rps: ${formatPaired(signed)} (what the per-request signature ` +
        'alone leaves of the raw pipe)',
    );
  }
  const signedCpu = cpuRatio('pipe-sign', 'pipe');
  if (signedCpu !== null) {
    lines.push(`- the same in CPU per request: ${formatPaired(signedCpu)}`);
  }
  const closeness = ratio(results, 'off', 'pipe-sign');
  if (closeness !== null) {
    lines.push(
      `- policies off (key binding) ÷ (raw pipe + signed identity), rps: ${formatPaired(closeness)}`,
    );
  }
  for (const [id, what] of [
    ['pipe-c1', 'raw pipe'],
    ['pipe-sign-c1', 'raw pipe + signed identity'],
  ] as const) {
    const added = addedP50(results, id, 'direct-c1');
    if (added !== null) {
      lines.push(
        `- added p50 at 1 connection, ${what} − direct: ${formatPaired(added, 3, 'ms')} (the gateway target is 0.3 ms)`,
      );
    }
  }
  return lines.length
    ? [
        '',
        'Signing reference: the raw pipe plus a signed identity per request, nothing else (no targets):',
        ...lines,
      ]
    : [];
}

/**
 * What the full gateway's margin over policies off and the peer is made of: the same gateway with
 * and without its two per-request logs (the access line and the API log row), in the same rounds.
 */
function loggingOf(): string[] {
  const rows: Array<[string, string, string]> = [
    ['full ÷ full without the per-request logs', 'memory', 'unlogged'],
    ['full without the per-request logs ÷ policies off', 'unlogged', 'off'],
    ['full without the per-request logs ÷ peer', 'unlogged', 'peer'],
  ];
  const lines = rows.flatMap(([what, a, b]) => {
    const cpu = cpuRatio(a, b);
    return cpu === null ? [] : [`- ${what}, CPU per request: ${formatPaired(cpu)}`];
  });
  const logged = cpuRuns.get('memory') ?? [];
  const unlogged = cpuRuns.get('unlogged') ?? [];
  const costs = logged.flatMap((value, round) => {
    const other = unlogged[round];
    return value !== null && other !== null && other !== undefined ? [value - other] : [];
  });
  if (costs.length) {
    const cost = { value: median(costs), low: Math.min(...costs), high: Math.max(...costs) };
    lines.push(`- the two logs' CPU per request (full − without them): ${formatPaired(cost, 1, 'µs')}`);
  }
  return lines.length
    ? [
        '',
        'Per-request logging (no targets): the memory-mode gateway beside the same gateway with neither an access line ' +
          '(warn level) nor an API log line (KEYGATE_API_LOG=off), usage still counted:',
        ...lines,
      ]
    : [];
}

/** What tracing costs the memory-mode gateway with every call sampled (reported, no target). */
function tracingOf(): string[] {
  const all = cpuRatio('traced-all', 'memory');
  const sampled = cpuRatio('traced-1pct', 'memory');
  const lines = [
    ...(sampled === null ? [] : [`- 1 % sampled ÷ untraced, CPU per request: ${formatPaired(sampled)}`]),
    ...(all === null ? [] : [`- every call sampled ÷ untraced, CPU per request: ${formatPaired(all)}`]),
  ];
  return lines.length
    ? [
        '',
        'Tracing (OTLP/HTTP protobuf to a sink that keeps nothing; the untraced memory-mode gateway is the default, no exporter):',
        ...lines,
      ]
    : [];
}

/** What Redis Cluster mode costs beside standalone Redis, each with all of its redis-server processes. */
function clusterOf(): string[] {
  const cpu = cpuRatio('cluster', 'redis');
  if (cpu === null) return [];
  return [
    '',
    'Redis Cluster (3 masters) beside standalone Redis (no target; the CPU of each counts its gateway and all of its redis-server processes):',
    `- Cluster ÷ Redis, CPU per request: ${formatPaired(cpu)}`,
  ];
}

/** Pairs that were targets once and are rows now (#36): what they are made of, without a bound. */
function rowsOf(): string[] {
  const rows: Array<[string, string, string]> = [
    ['full (memory) ÷ policies off', 'memory', 'off'],
    ['Redis ÷ memory (gateway + redis-server)', 'redis', 'memory'],
    ['keygate as shipped ÷ unlogged peer', 'memory', 'peer'],
    ['keygate without its per-request logs ÷ unlogged peer', 'unlogged', 'peer'],
    ['logged peer ÷ unlogged peer (what logger: true costs Fastify)', 'peer-logged', 'peer'],
    ['refusal of a unique unknown token ÷ an admitted call (memory)', 'refuse-unknown', 'memory'],
    [
      'refusal of a unique wrong secret on a real lookup ÷ an admitted call (memory)',
      'refuse-wrong',
      'memory',
    ],
    ['the logged peer: its refusal ÷ its admitted call', 'peer-refuse', 'peer-logged'],
    [
      'traced peer ÷ logged peer (what the OpenTelemetry Node SDK at 1 % costs Fastify)',
      'peer-traced',
      'peer-logged',
    ],
  ];
  const lines = rows.flatMap(([what, a, b]) => {
    const cpu = cpuRatio(a, b);
    return cpu === null ? [] : [`- ${what}, CPU per request: ${formatPaired(cpu)}`];
  });
  return lines.length ? ['', 'Rows without targets:', ...lines] : [];
}

async function main(): Promise<void> {
  const cpuAtStart = machineCpuTimes();
  const pinning = pinBenchToLoadCores();
  log(pinning);
  log(`wrk -t1, ${SECONDS} s per run, ${ROUNDS} rounds, gateway LOG_LEVEL=${GATEWAY_LOG_LEVEL}`);
  const stack = await startStack({
    gatewayLogLevel: GATEWAY_LOG_LEVEL,
    smallKeyCount: SMALL_KEYS,
    largeKeyCount: LARGE_KEYS,
    products: PRODUCTS,
    log,
  });
  commandCounter.redis = new Redis(stack.redisUrl, { maxRetriesPerRequest: 1 });
  const memory = watchMemory(stack, pidOf(stack.pipeUrl));
  await memory.readIdle();
  const large =
    !ONLY || ONLY.includes('commerce-catalog-100k')
      ? await startLargeCommerce({
          products: LARGE_CATALOGUE,
          expressUrl: stack.expressUrl,
          logLevel: GATEWAY_LOG_LEVEL,
          log,
        })
      : null;
  const refusalTokens = writeRefusalTokens(tempDir('keygate-bench-tokens-'), stack.tokens.memory);
  const mixed = !ONLY || ONLY.includes('commerce-mixed') ? await prepareMixedRun(stack) : null;
  const scenarios = [...scenariosOf(stack, refusalTokens), ...commerceScenarios(stack, large, mixed)].filter(
    (s) => !ONLY || ONLY.includes(s.id),
  );
  await checkScenarios(scenarios);
  const results = await measure(
    scenarios,
    new Set(Object.values(stack.gateways).map((gateway) => new URL(gateway.url).origin)),
    memory,
  );
  const memoryFigures = memory.section(new Set(scenarios.map((s) => s.id)));
  const refusalChecks = await runRefusalChecks({
    stack,
    scenarios,
    results,
    only: ONLY,
    seconds: SECONDS,
    rounds: ROUNDS,
    logLevel: GATEWAY_LOG_LEVEL,
    log,
  });
  const soaked =
    SOAK_SECONDS > 0
      ? await soak(stack, createLoadRunner(tempDir('keygate-bench-soak-')), SOAK_SECONDS, log)
      : null;

  // The target: no argon2 verification for the tagged secrets a gateway was called with (the
  // scenarios that ran, which the soak and the checks before the load only repeat).
  const verifications = new Map<BenchGateway, { count: number; secrets: number }>();
  for (const gateway of Object.values(stack.gateways)) {
    const origin = new URL(gateway.url).origin;
    const called = scenarios.filter(
      (s) => new URL(s.url).origin === origin && s.headers.Authorization && !('tokensFile' in s),
    );
    const secrets =
      new Set(called.map((s) => s.headers.Authorization)).size +
      called.reduce((sum, s) => sum + ('cycledKeys' in s ? (s.cycledKeys ?? 0) : 0), 0);
    if (secrets > 0) verifications.set(gateway, { count: await argon2Verifications(gateway), secrets });
  }

  const assertionCosts: Array<[IdentityAlgorithm, Awaited<ReturnType<typeof measureAssertionCost>>]> = [];
  for (const algorithm of IDENTITY_ALGORITHMS) {
    assertionCosts.push([algorithm, await measureAssertionCost(algorithm)]);
  }
  const storefront =
    !ONLY || ONLY.includes('storefront-lighthouse') ? await benchStorefront({ rounds: ROUNDS, log }) : null;
  const rows = scenarios.map((s) => formatRow(s.label, s.connections, results.get(s.id)!, cpuOf(s.id)));
  const commerceResults = commerceTargets(results, large);
  const targets = [
    ...targetsOf(results, verifications),
    ...refusalChecks.targets,
    ...commerceResults.targets,
    ...memoryFigures.targets,
    ...(soaked?.targets ?? []),
    ...(storefront?.targets ?? []),
  ];
  const libraries = [
    [
      'raw pipe with undici ÷ raw pipe (node:http), the client library alone',
      ratio(results, 'pipe-undici', 'pipe'),
    ],
    ["policies off ÷ raw pipe with undici (the gateway's client)", ratio(results, 'off', 'pipe-undici')],
    ['Express 5 + http-proxy-middleware ÷ raw pipe', ratio(results, 'express-hpm', 'pipe')],
    ['policies off ÷ Express 5 + http-proxy-middleware', ratio(results, 'off', 'express-hpm')],
  ].flatMap(([name, value]) => (value === null ? [] : [`- ${name}: ${formatPaired(value as Paired)}`]));
  const commerce = [
    ['catalogue ÷ bare Express, both via gateway', ratio(results, 'catalog', 'express-gw')],
    ['GraphQL ÷ bare Express, both via gateway', ratio(results, 'graphql', 'express-gw')],
    ['bare Express via gateway ÷ direct', ratio(results, 'express-gw', 'express')],
  ].flatMap(([name, value]) => (value === null ? [] : [`- ${name}: ${formatPaired(value as Paired)}`]));
  const facts = collectFacts(
    `wrk -t1, ${SECONDS} s per run, ${ROUNDS} rounds (median), ${WARMUP_SECONDS} s warm-up per target, ` +
      `${RUN_WARMUP_SECONDS} s of unmeasured load before each run, gateway LOG_LEVEL=${GATEWAY_LOG_LEVEL}, ${PRODUCTS} products, ${SMALL_KEYS} / ${LARGE_KEYS} keys; ${pinning}`,
    `${stealSince(cpuAtStart)}; runs with more than ${MAX_STEAL * 100} % were measured again (up to ` +
      `${STEAL_RETRIES} times, the attempt with the least steal kept): ${stealRepeats.repeated} repeats, ` +
      `${stealRepeats.keptAbove} runs kept above ${MAX_STEAL * 100} %`,
  );
  const body = [
    ...formatFacts(facts),
    ...noiseOf(results),
    '',
    ...TABLE_HEAD,
    ...rows,
    '',
    ...TARGET_HEAD,
    ...targets.map(formatTarget),
    ...signingReferenceOf(results),
    ...rowsOf(),
    ...refusalChecks.lines,
    ...loggingOf(),
    ...tracingOf(),
    ...clusterOf(),
    '',
    'Data-plane libraries (no targets):',
    ...libraries,
    '',
    'Commerce (the targets above are judged by commerce CPU per request, rps beside):',
    ...commerce,
    ...commerceResults.lines,
    '',
    'Memory (RSS; the raw pipe is the floor a Node proxy starts from):',
    ...memoryFigures.lines,
    ...(soaked ? ['', ...soaked.lines] : []),
    ...(storefront?.lines ?? []),
    '',
    ...assertionSection(assertionCosts),
    '',
    ...cpuSection(scenarios),
  ];
  process.stdout.write(`\n${body.join('\n')}\n`);
  if (ONLY || SMOKE) log('BENCH_ONLY or BENCH_SMOKE is set: bench/RESULTS.md left as it was');
  else {
    writeResults(RESULTS_FILE, body, facts);
    log('written to bench/RESULTS.md');
  }
  const missed = targets.filter((t) => !t.pass).length;
  log(
    `${targets.length - missed} targets pass, ${missed} miss; done in ${Math.round((Date.now() - started) / 1000)} s`,
  );
}

let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    log(`${signal}: stopping every child process`);
    void Promise.all([stopAll(1000), stopTopologies()]).finally(() => process.exit(130));
  });
}
process.on('exit', killAllNow);

try {
  await main();
  commandCounter.redis?.disconnect();
  await Promise.all([stopAll(), stopTopologies()]);
} catch (error) {
  commandCounter.redis?.disconnect();
  // After Ctrl-C the children are being stopped on purpose; their failures are not news.
  if (!interrupted)
    process.stderr.write(
      `bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
  await Promise.all([stopAll(1000), stopTopologies()]);
  process.exitCode = 1;
}
