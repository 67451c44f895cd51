import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { COMMERCE_NODE_FLAGS } from '../../commerce/src/node-flags.ts';
import { GATEWAY_MALLOC_ENV, GATEWAY_NODE_FLAGS } from '../../gateway/src/node-flags.ts';
import { pingOnce } from '../../gateway/test/support/redis-server.ts';
import { startRedisCluster } from '../../gateway/test/support/redis-topology.ts';
import {
  type Child,
  freePort,
  onMeasuredCore,
  runToEnd,
  startChild,
  tempDir,
  waitForOk,
} from './processes.ts';

/** A gateway process under test and what the bench expects of it. */
export interface BenchGateway {
  name: string;
  url: string;
  pid: number;
}

/** Every process of the bench, up and answering, with the tokens of the keys under load. */
export interface Stack {
  noopUrl: string;
  pipeUrl: string;
  /** The raw pipe plus a per-request signed identity assertion, and nothing else. */
  signingPipeUrl: string;
  /** The raw pipe with undici's client (the gateway's) instead of node:http's `request`. */
  undiciPipeUrl: string;
  /** Express 5 + http-proxy-middleware alone, in front of the no-op upstream. */
  expressProxyUrl: string;
  /** The peer: Fastify 5 + @fastify/reply-from + rate-limiter-flexible and a bearer check (signs and logs nothing). */
  peerUrl: string;
  /** The same peer with Fastify's default production logger (`logger: true`): the judged peer. */
  peerLoggedUrl: string;
  /** The logged peer with its rate limit in the bench's redis-server (RateLimiterRedis on ioredis). */
  peerRedisUrl: string;
  /**
   * The logged peer traced as a Node team would: the OpenTelemetry Node SDK with the
   * auto-instrumentations, OTLP/HTTP protobuf to the sink, the root sampled at 1 % (`OTEL_*`).
   */
  peerTracedUrl: string;
  /** The redis-server of Redis mode: its CPU counts with the Redis-mode gateway's. */
  redisPid: number;
  redisUrl: string;
  /** The redis-server processes of the Cluster (3 masters): their CPU counts with Cluster mode's gateway. */
  clusterPids: number[];
  expressUrl: string;
  /** Every key's token of `gateways.memory100kBuckets` but one, a line each: its load cycles through them. */
  memory100kBucketsTokens: string;
  /** The commerce process (10,000 products) behind `gateways.commerce`. */
  commercePid: number;
  gateways: {
    policiesOff: BenchGateway;
    /** Policies off with KEYGATE_IDENTITY_BINDING=request: one assertion signed per request. */
    policiesOffRequest: BenchGateway;
    memory: BenchGateway;
    /**
     * Memory mode for the sandbox row (a test key, bodies logged) alone: the bodies it keeps would
     * otherwise sit in the heap of `memory`, whose later runs in a round would pay their collection.
     */
    sandbox: BenchGateway;
    /** Memory mode without per-request logs (KEYGATE_API_LOG=off, warn level): what those logs cost. */
    unlogged: BenchGateway;
    /** Memory mode without outcome counting (KEYGATE_ANALYTICS=off): what analytics cost a call. */
    uncounted: BenchGateway;
    /** Redis mode without outcome counting, on the Redis gateway's keys. */
    redisUncounted: BenchGateway;
    memory100k: BenchGateway;
    /** Memory mode, 100k keys every one of which can be called, and a day of their minute buckets. */
    memory100kBuckets: BenchGateway;
    /** Memory mode with tracing on (OTLP to a sink), the root sampled at 1 % / at 100 %. */
    tracedSampled: BenchGateway;
    tracedAll: BenchGateway;
    redis: BenchGateway;
    /** Redis mode on a 3-master Redis Cluster. */
    cluster: BenchGateway;
    commerce: BenchGateway;
  };
  tokens: {
    peer: string;
    /** Live keys: the production path. */
    memory: string;
    /** A test key of the same gateway (the wrong-secret burst's victim). */
    memoryTest: string;
    /** The test key of `gateways.sandbox`: the sandbox, which logs each call's bodies. */
    sandbox: string;
    unlogged: string;
    uncounted: string;
    redisUncounted: string;
    memory100k: string;
    /** One key of the 100k-keys-with-analytics gateway, for the pre-load check. */
    memory100kBuckets: string;
    tracedSampled: string;
    tracedAll: string;
    redis: string;
    /** Live keys on a plan (minute limit, day and month quotas, credits) of the memory and Redis gateways. */
    memoryPlan: string;
    redisPlan: string;
    cluster: string;
    commerceLive: string;
    commerceTest: string;
  };
}

export interface StackOptions {
  /** Log level of every gateway (their stdout goes to /dev/null). */
  gatewayLogLevel: string;
  /** Keys in the store of the "100 keys" and the "100k keys" memory-mode gateways. */
  smallKeyCount: number;
  largeKeyCount: number;
  products: number;
  log: (line: string) => void;
}

const NODE = process.execPath;

/**
 * The tag key of every bench gateway (one per run): the load keys are seeded with its tag, as keys
 * made through the API or the CLI are, so a call is verified by its tag, as shipped (#36).
 */
export const BENCH_TAG_KEY = randomBytes(32).toString('base64url');
/** Commerce runs with its production Node flags (commerce/src/node-flags.ts). */
export const COMMERCE_NODE_ARGS = COMMERCE_NODE_FLAGS;

/** Process id of every server the bench started, by origin (`http://127.0.0.1:PORT`). */
const pidsByOrigin = new Map<string, number>();

/** The process id of the server at a URL's origin, if the bench started it. */
export function pidOf(url: string): number | undefined {
  return pidsByOrigin.get(new URL(url).origin);
}

/**
 * The OpenTelemetry Node SDK's zero-code start (`--import …/register`), resolved from the bench
 * package (its devDependency) since the servers run from the repository root.
 */
const PEER_TRACING = import.meta.resolve('@opentelemetry/auto-instrumentations-node/register');
/** The traced peer's SDK settings: traces only, as keygate exports them, sampled as the traced gateway. */
const PEER_OTEL_ENV = {
  OTEL_SERVICE_NAME: 'fastify-peer',
  OTEL_TRACES_EXPORTER: 'otlp',
  OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
  OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
  OTEL_TRACES_SAMPLER_ARG: '0.01',
  OTEL_METRICS_EXPORTER: 'none',
  OTEL_LOGS_EXPORTER: 'none',
  // The cloud detectors probe metadata endpoints at start; none of them applies on this machine.
  OTEL_NODE_RESOURCE_DETECTORS: 'env,host,os,process',
};

/** The bench's servers that are load, not measured: upstreams and the OTLP sink run beside wrk. */
const LOAD_SIDE = new Set(['noop-upstream.ts', 'bare-express.ts', 'otlp-sink.ts']);

/** `node bench/servers/<script> PORT …` once it answers; a measured server runs on its own core. */
async function startServer(
  name: string,
  script: string,
  args: string[] = [],
  env: Record<string, string> = {},
  stdoutFile?: string,
  nodeArgs: string[] = [],
): Promise<string> {
  const port = await freePort();
  // BENCH_PEER_NODE_ARGS: extra Node flags for the Fastify peers, e.g. to profile them beside the gateways.
  const peerArgs =
    script === 'fastify-peer.ts' ? (process.env.BENCH_PEER_NODE_ARGS?.split(' ').filter(Boolean) ?? []) : [];
  const command: [string, string[]] = [
    NODE,
    [...peerArgs, ...nodeArgs, join('bench/servers', script), String(port), ...args],
  ];
  const [file, argv] = LOAD_SIDE.has(script) ? command : onMeasuredCore(...command);
  const child = startChild(name, file, argv, env, stdoutFile);
  const url = `http://127.0.0.1:${port}`;
  await waitForOk(child, `${url}/healthz`);
  if (child.process.pid) pidsByOrigin.set(url, child.process.pid);
  return url;
}

async function startRedis(dir: string): Promise<{ url: string; pid: number }> {
  mkdirSync(dir, { recursive: true });
  const port = await freePort();
  const args = [
    '--save',
    '',
    '--appendonly',
    'no',
    '--dir',
    dir,
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
  ];
  const child = startChild('redis-server', 'redis-server', args);
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (child.process.exitCode !== null) break;
    if (await pingOnce(port)) return { url: `redis://127.0.0.1:${port}`, pid: child.process.pid ?? 0 };
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`redis-server did not start:\n${child.output()}`);
}

/** Runs bench/setup/seed-keys.ts and returns the tokens it created, by environment. */
export async function seedKeys(args: string[]): Promise<Record<string, string>> {
  const out = await runToEnd('seed-keys', NODE, ['bench/setup/seed-keys.ts', ...args]);
  return (JSON.parse(out.trim().split('\n').pop() ?? '{}') as { tokens: Record<string, string> }).tokens;
}

/**
 * Starts a gateway on the measured core, or (`onLoadSide`) beside wrk on the load cores, where it
 * inherits the bench's pinning: the commerce rows measure commerce, and its gateway is their load.
 */
export async function startGateway(
  name: string,
  env: Record<string, string>,
  logLevel: string,
  port?: number,
  onLoadSide = false,
): Promise<BenchGateway> {
  port ??= await freePort();
  const nodeArgs = process.env.BENCH_GATEWAY_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const dataDir = env.KEYGATE_DATA_DIR;
  if (!dataDir) throw new Error(`${name}: a bench gateway needs KEYGATE_DATA_DIR`);
  // Access log lines (info) are written, as in production, to a file beside the gateway's data.
  const command: [string, string[]] = [NODE, [...GATEWAY_NODE_FLAGS, ...nodeArgs, 'gateway/src/main.ts']];
  const child: Child = startChild(
    name,
    ...(onLoadSide ? command : onMeasuredCore(...command)),
    // The allocator settings of the container image, so the RSS figures are the image's.
    {
      ...GATEWAY_MALLOC_ENV,
      GATEWAY_PORT: String(port),
      GATEWAY_HOST: '127.0.0.1',
      LOG_LEVEL: logLevel,
      KEYGATE_SECRET_TAG_KEY: BENCH_TAG_KEY,
      ...env,
    },
    `${dataDir}.log`,
  );
  const url = `http://127.0.0.1:${port}`;
  await waitForOk(child, `${url}/readyz`);
  if (child.process.pid) pidsByOrigin.set(url, child.process.pid);
  return { name, url, pid: child.process.pid ?? 0 };
}

/** Stops of what `startStack` started outside the child-process set (the Redis Cluster). */
const topologyStops: Array<() => Promise<void>> = [];

/** Stops the Redis Cluster of the stack, if one was started. */
export async function stopTopologies(): Promise<void> {
  await Promise.all(topologyStops.splice(0).map((stop) => stop()));
}

/**
 * Starts the whole bench: no-op upstream, raw pipe proxy (alone and signing), the Fastify peer, bare
 * Express app, redis-server, a Redis Cluster, commerce (live, 10,000 products) and eight gateways
 * (policies off, in the default key binding and in request binding; memory mode with 100 and with
 * 100k keys, and with 100 keys but neither access nor API log lines; Redis mode; Redis Cluster mode;
 * memory mode in front of commerce, live keys to commerce, test keys to bare Express).
 */
export async function startStack(options: StackOptions): Promise<Stack> {
  const { log } = options;
  const dir = tempDir('keygate-bench-');
  const data = (name: string) => join(dir, name);
  log(`data in ${dir}`);

  const peerToken = `peer_${randomBytes(24).toString('base64url')}`;
  const [noopUrl, expressUrl, redisServer, cluster, otlpSinkUrl] = await Promise.all([
    startServer('noop-upstream', 'noop-upstream.ts'),
    startServer('bare-express', 'bare-express.ts'),
    startRedis(data('redis')),
    // Stopped with the bench process (the topology kills its servers on exit).
    startRedisCluster(),
    startServer('otlp-sink', 'otlp-sink.ts'),
  ]);
  topologyStops.push(() => cluster.stop());
  const clusterNodes = cluster.target.clusterNodes.map((node) => `${node.host}:${node.port}`).join(',');
  const redisUrl = redisServer.url;
  const [pipeUrl, signingPipeUrl, undiciPipeUrl, expressProxyUrl, peerUrl] = await Promise.all([
    startServer('pipe-proxy', 'pipe-proxy.ts', [noopUrl]),
    startServer('signing-pipe-proxy', 'signing-pipe-proxy.ts', [noopUrl]),
    startServer('undici-pipe-proxy', 'undici-pipe-proxy.ts', [noopUrl]),
    startServer('express-hpm-proxy', 'express-hpm-proxy.ts', [noopUrl]),
    startServer('fastify-peer', 'fastify-peer.ts', [noopUrl], { BENCH_PEER_TOKEN: peerToken }),
  ]);
  // The logged peers write their lines to a file, as the gateways write their access lines.
  const [peerLoggedUrl, peerRedisUrl, peerTracedUrl] = await Promise.all([
    startServer(
      'fastify-peer-logged',
      'fastify-peer.ts',
      [noopUrl],
      { BENCH_PEER_TOKEN: peerToken, BENCH_PEER_LOGGER: '1' },
      data('peer-logged.log'),
    ),
    startServer(
      'fastify-peer-redis',
      'fastify-peer.ts',
      [noopUrl],
      { BENCH_PEER_TOKEN: peerToken, BENCH_PEER_LOGGER: '1', BENCH_PEER_REDIS_URL: redisUrl },
      data('peer-redis.log'),
    ),
    startServer(
      'fastify-peer-traced',
      'fastify-peer.ts',
      [noopUrl],
      {
        BENCH_PEER_TOKEN: peerToken,
        BENCH_PEER_LOGGER: '1',
        ...PEER_OTEL_ENV,
        OTEL_EXPORTER_OTLP_ENDPOINT: otlpSinkUrl,
      },
      data('peer-traced.log'),
      ['--import', PEER_TRACING],
    ),
  ]);

  log(
    `seeding commerce (${options.products} products) and keys (${options.largeKeyCount} in the largest store)`,
  );
  const commerceDb = data('commerce-live.db');
  const bucketsDb = data('memory100k-buckets/gateway.db');
  const bucketsTokens = data('memory100k-buckets-tokens.txt');
  /** A gateway's SQLite store in `dir`: `fillers` tagged keys, then one key per environment of `keys`. */
  const seedStore = (dir: string, fillers: number, keys: string[], more: string[] = []) =>
    seedKeys([
      `--tag-key=${BENCH_TAG_KEY}`,
      '--db',
      data(`${dir}/gateway.db`),
      '--fillers',
      String(fillers),
      ...keys.flatMap((env) => ['--key', env]),
      ...more,
    ]);
  // 100k keys, all tagged and listed, then a day of analytics for each (seed-call-buckets.ts).
  const seedKeysWithBuckets = async () => {
    const keys = await seedKeys([
      `--tag-key=${BENCH_TAG_KEY}`,
      '--db',
      bucketsDb,
      '--fillers',
      String(options.largeKeyCount - 1),
      '--fillers-tokens',
      bucketsTokens,
      '--key',
      'live',
    ]);
    const seeded = await runToEnd('seed-call-buckets', NODE, [
      'bench/setup/seed-call-buckets.ts',
      '--db',
      bucketsDb,
    ]);
    log(`analytics seeded: ${seeded.trim()}`);
    return keys;
  };
  const [
    memoryKeys,
    sandboxKeys,
    unloggedKeys,
    uncountedKeys,
    largeKeys,
    bucketsKeys,
    commerceKeys,
    redisKeys,
    clusterKeys,
  ] = await Promise.all([
    seedStore('memory', options.smallKeyCount - 2, ['live', 'test'], ['--plan-key', 'live']),
    seedStore('sandbox', options.smallKeyCount - 1, ['test']),
    seedStore('unlogged', options.smallKeyCount - 1, ['live']),
    seedStore('uncounted', options.smallKeyCount - 1, ['live']),
    seedStore('memory100k', options.largeKeyCount - 1, ['live']),
    seedKeysWithBuckets(),
    seedKeys([
      `--tag-key=${BENCH_TAG_KEY}`,
      '--db',
      data('commerce-gw/gateway.db'),
      '--scope',
      'order:rw',
      '--key',
      'live',
      '--key',
      'test',
    ]),
    seedKeys([
      `--tag-key=${BENCH_TAG_KEY}`,
      '--redis',
      redisUrl,
      '--prefix',
      'bench:',
      '--key',
      'live',
      '--plan-key',
      'live',
    ]),
    seedKeys([
      `--tag-key=${BENCH_TAG_KEY}`,
      '--cluster',
      clusterNodes,
      '--prefix',
      'bench:',
      '--key',
      'live',
    ]),
    runToEnd('seed-commerce', NODE, [
      'commerce/src/seed-cli.ts',
      '--env',
      'live',
      '--products',
      String(options.products),
      '--db',
      commerceDb,
    ]),
  ]);

  const [sampledKeys, allKeys] = await Promise.all(
    ['traced-sampled', 'traced-all'].map((name) => seedStore(name, options.smallKeyCount - 1, ['live'])),
  );

  log('starting gateways and commerce');
  const level = options.gatewayLogLevel;
  const toNoop = { KEYGATE_UPSTREAM_LIVE: noopUrl, KEYGATE_UPSTREAM_TEST: noopUrl };
  const [commercePort, commerceGatewayPort] = await Promise.all([freePort(), freePort()]);
  const commerceUrl = `http://127.0.0.1:${commercePort}`;
  // Commerce fetches the gateway's JWKS on its first request, so it can start before the gateway.
  // BENCH_COMMERCE_NODE_ARGS: extra Node flags for commerce (10,000 products), e.g. to profile it.
  const commerceArgs = process.env.BENCH_COMMERCE_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  // Commerce is the measured process of the commerce rows (its CPU per request is what they judge),
  // so it runs on the measured core, as the gateways do, not beside wrk.
  const commerceChild = startChild(
    'commerce',
    ...onMeasuredCore(NODE, [...commerceArgs, ...COMMERCE_NODE_ARGS, 'commerce/src/main.ts']),
    {
      COMMERCE_ENV: 'live',
      COMMERCE_PORT: String(commercePort),
      COMMERCE_DB_FILE: commerceDb,
      KEYGATE_DATA_DIR: data('commerce'),
      KEYGATE_JWKS_URL: `http://127.0.0.1:${commerceGatewayPort}/.well-known/jwks.json`,
      LOG_LEVEL: 'warn',
    },
  );
  await waitForOk(commerceChild, `${commerceUrl}/healthz`);
  const off = { ...toNoop, KEYGATE_POLICIES: 'off', KEYGATE_BENCH_MODE: '1' };
  // Tracing on, exporting over OTLP/HTTP protobuf to the sink; only the root sampler's ratio differs.
  const traced = (name: string, ratio: string) => ({
    ...toNoop,
    KEYGATE_DATA_DIR: data(name),
    OTEL_EXPORTER_OTLP_ENDPOINT: otlpSinkUrl,
    OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
    OTEL_TRACES_SAMPLER_ARG: ratio,
  });
  const [tracedSampled, tracedAll] = await Promise.all([
    startGateway('gateway (memory, traced, ratio 0.01)', traced('traced-sampled', '0.01'), level),
    startGateway('gateway (memory, traced, ratio 1)', traced('traced-all', '1'), level),
  ]);
  const uncountedEnv = { KEYGATE_ANALYTICS: 'off', KEYGATE_BENCH_MODE: '1' };
  const redisEnv = {
    ...toNoop,
    REDIS_URL: redisUrl,
    KEYGATE_REDIS_PREFIX: 'bench:',
    KEYGATE_SECRET_TAG_KEY: BENCH_TAG_KEY,
  };
  // Without outcome counting (no usage meter), memory and Redis: what analytics cost a call.
  const [uncounted, redisUncounted] = await Promise.all([
    startGateway(
      'gateway (memory, uncounted)',
      { ...toNoop, ...uncountedEnv, KEYGATE_DATA_DIR: data('uncounted') },
      level,
    ),
    startGateway(
      'gateway (redis, uncounted)',
      { ...redisEnv, ...uncountedEnv, KEYGATE_DATA_DIR: data('redis-uncounted-gw') },
      level,
    ),
  ]);
  const [
    policiesOff,
    policiesOffRequest,
    memory,
    sandbox,
    unlogged,
    memory100k,
    memory100kBuckets,
    redis,
    clusterGateway,
    commerce,
  ] = await Promise.all([
    startGateway('gateway (policies off)', { ...off, KEYGATE_DATA_DIR: data('off') }, level),
    startGateway(
      'gateway (policies off, request binding)',
      { ...off, KEYGATE_DATA_DIR: data('off-request'), KEYGATE_IDENTITY_BINDING: 'request' },
      level,
    ),
    startGateway('gateway (memory)', { ...toNoop, KEYGATE_DATA_DIR: data('memory') }, level),
    startGateway('gateway (memory, sandbox)', { ...toNoop, KEYGATE_DATA_DIR: data('sandbox') }, level),
    // Memory mode without its two per-request logs: no access line (warn level) and no API log line.
    startGateway(
      'gateway (memory, unlogged)',
      { ...toNoop, KEYGATE_DATA_DIR: data('unlogged'), KEYGATE_API_LOG: 'off', KEYGATE_BENCH_MODE: '1' },
      'warn',
    ),
    startGateway('gateway (memory, 100k keys)', { ...toNoop, KEYGATE_DATA_DIR: data('memory100k') }, level),
    startGateway(
      'gateway (memory, 100k keys, a day of analytics)',
      { ...toNoop, KEYGATE_DATA_DIR: data('memory100k-buckets') },
      level,
    ),
    startGateway(
      'gateway (redis)',
      {
        ...toNoop,
        KEYGATE_DATA_DIR: data('redis-gw'),
        REDIS_URL: redisUrl,
        KEYGATE_REDIS_PREFIX: 'bench:',
        KEYGATE_SECRET_TAG_KEY: BENCH_TAG_KEY,
      },
      level,
    ),
    startGateway(
      'gateway (redis cluster)',
      {
        ...toNoop,
        KEYGATE_DATA_DIR: data('cluster-gw'),
        KEYGATE_REDIS_CLUSTER_NODES: clusterNodes,
        KEYGATE_REDIS_PREFIX: 'bench:',
        KEYGATE_SECRET_TAG_KEY: BENCH_TAG_KEY,
      },
      level,
    ),
    startGateway(
      'gateway (commerce)',
      {
        KEYGATE_DATA_DIR: data('commerce-gw'),
        KEYGATE_UPSTREAM_LIVE: commerceUrl,
        KEYGATE_UPSTREAM_TEST: expressUrl,
      },
      level,
      commerceGatewayPort,
      // Commerce alone on the measured core: its gateway preempting it there was counted as commerce's.
      true,
    ),
  ]);

  return {
    noopUrl,
    pipeUrl,
    signingPipeUrl,
    undiciPipeUrl,
    expressProxyUrl,
    peerUrl,
    peerLoggedUrl,
    peerRedisUrl,
    peerTracedUrl,
    redisPid: redisServer.pid,
    redisUrl,
    clusterPids: cluster.nodes.map((node) => node.pid),
    expressUrl,
    memory100kBucketsTokens: bucketsTokens,
    commercePid: commerceChild.process.pid ?? 0,
    gateways: {
      policiesOff,
      policiesOffRequest,
      memory,
      sandbox,
      unlogged,
      uncounted,
      redisUncounted,
      memory100k,
      memory100kBuckets,
      tracedSampled,
      tracedAll,
      redis,
      cluster: clusterGateway,
      commerce,
    },
    tokens: {
      peer: peerToken,
      memory: memoryKeys.live!,
      memoryTest: memoryKeys.test!,
      sandbox: sandboxKeys.test!,
      unlogged: unloggedKeys.live!,
      uncounted: uncountedKeys.live!,
      redisUncounted: redisKeys.live!,
      memory100k: largeKeys.live!,
      memory100kBuckets: bucketsKeys.live!,
      tracedSampled: sampledKeys!.live!,
      tracedAll: allKeys!.live!,
      redis: redisKeys.live!,
      memoryPlan: memoryKeys['plan-live']!,
      redisPlan: redisKeys['plan-live']!,
      cluster: clusterKeys.live!,
      commerceLive: commerceKeys.live!,
      commerceTest: commerceKeys.test!,
    },
  };
}
