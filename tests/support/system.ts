import { randomBytes } from 'node:crypto';
import { generateIdentityKeyPair } from '@keygate/identity';
import { freePort, runNode, type Service, startService, tempDir } from './processes.ts';

/** The JSON body of a response, typed as the test expects it. */
export async function json<T = Record<string, unknown>>(res: Response): Promise<T> {
  return (await res.json()) as T;
}

/** Gateway(s) + commerce live + commerce test as real processes on free ports, one temp data dir. */
export interface System {
  /** The first gateway (the only one unless `gateways` was given). */
  gateway: Service;
  /** Every gateway process, in start order; `restartGateway` replaces entries. */
  gateways: Service[];
  live: Service;
  test: Service;
  dataDir: string;
  /** Environment shared by every process (and the CLI); includes REDIS_URL on Redis. */
  env: Record<string, string>;
  /** Runs `pnpm keygate …` (the operator CLI) against this system's store. */
  keygate: (...args: string[]) => Promise<{ code: number | null; stdout: string; stderr: string }>;
  /** Creates a key with the CLI and returns its `{id, prefix, secret}`. */
  createKey: (options: {
    name: string;
    env: 'live' | 'test';
    scopes: string[];
    extra?: string[];
  }) => Promise<{ id: string; prefix: string; secret: string }>;
  /** fetch() through the first gateway with a bearer key. */
  call: (secret: string | null, path: string, init?: RequestInit) => Promise<Response>;
  /** fetch() through gateway `index` with a bearer key. */
  callOn: (index: number, secret: string | null, path: string, init?: RequestInit) => Promise<Response>;
  /** Starts gateway `index` again on its port (after it stopped), optionally with more environment. */
  restartGateway: (index: number, extraEnv?: Record<string, string>) => Promise<Service>;
  stop: () => Promise<void>;
}

export interface SystemOptions {
  /** Extra environment for every gateway process. */
  gatewayEnv?: Record<string, string>;
  /** How many gateway processes to start (default 1). More than one needs `redisUrl`. */
  gateways?: number;
  /** A shared Redis: every gateway and the CLI get REDIS_URL, and all gateways one identity key. */
  redisUrl?: string;
  /**
   * A shared Redis given by its variables instead (e.g. `KEYGATE_REDIS_CLUSTER_NODES`, or
   * `KEYGATE_REDIS_SENTINELS` and `KEYGATE_REDIS_SENTINEL_NAME`): every gateway and the CLI get them.
   */
  redisEnv?: Record<string, string>;
  /** Extra environment for both commerce processes. */
  commerceEnv?: Record<string, string>;
  /** Seeds commerce live with this many products before it starts (otherwise it seeds its default). */
  liveProducts?: number;
}

async function sharedGatewayEnv(options: SystemOptions): Promise<Record<string, string>> {
  if (!options.redisUrl && !options.redisEnv) return {};
  // Every instance signs with one key, so commerce accepts assertions from any of them.
  const { privateJwk } = await generateIdentityKeyPair();
  return { KEYGATE_IDENTITY_PRIVATE_JWK: JSON.stringify(privateJwk) };
}

/** Seeds commerce live's database (in the data dir of `env`) with `products` products, as `pnpm seed` does. */
async function seedLive(products: number, env: Record<string, string>): Promise<void> {
  const args = ['--env', 'live', '--products', String(products)];
  const seeded = await runNode('commerce/src/seed-cli.ts', args, env);
  if (seeded.code !== 0) throw new Error(`seeding commerce live failed: ${seeded.stderr}`);
}

/**
 * Starts the system. By default one gateway on the SQLite store in the data dir; with
 * `{gateways: 3, redisUrl}`, three gateway processes sharing that Redis and one identity key.
 */
export async function startSystem(options: SystemOptions = {}): Promise<System> {
  const count = options.gateways ?? 1;
  if (count > 1 && !options.redisUrl && !options.redisEnv)
    throw new Error('several gateways need a shared redisUrl');
  const dir = tempDir();
  const gatewayPorts: number[] = [];
  for (let i = 0; i < count; i++) gatewayPorts.push(await freePort());
  const [livePort, testPort] = [await freePort(), await freePort()];
  const env: Record<string, string> = {
    KEYGATE_DATA_DIR: dir.path,
    GATEWAY_PORT: String(gatewayPorts[0]),
    COMMERCE_LIVE_PORT: String(livePort),
    COMMERCE_TEST_PORT: String(testPort),
    KEYGATE_UPSTREAM_LIVE: `http://127.0.0.1:${livePort}`,
    KEYGATE_UPSTREAM_TEST: `http://127.0.0.1:${testPort}`,
    KEYGATE_JWKS_URL: `http://127.0.0.1:${gatewayPorts[0]}/.well-known/jwks.json`,
    KEYGATE_USAGE_FLUSH_MS: '200',
    ...(options.redisUrl ? { REDIS_URL: options.redisUrl } : {}),
    ...options.redisEnv,
    // A shared store requires one tag key for every instance and the CLI.
    ...(options.redisUrl || options.redisEnv
      ? { KEYGATE_SECRET_TAG_KEY: randomBytes(32).toString('base64url') }
      : {}),
  };
  const gatewayEnv = { ...env, ...(await sharedGatewayEnv(options)), ...options.gatewayEnv };
  const startGateway = (index: number, extraEnv: Record<string, string> = {}) =>
    startService({
      name: count > 1 ? `gateway-${index + 1}` : 'gateway',
      script: 'gateway/src/main.ts',
      port: gatewayPorts[index] as number,
      env: { ...gatewayEnv, ...extraEnv, GATEWAY_PORT: String(gatewayPorts[index]) },
    });
  const gateways: Service[] = [];
  const started: Service[] = [];
  const stopAll = () => Promise.all([...started, ...gateways].map((s) => s.stop()));
  try {
    const starting = gatewayPorts.map((_, index) => startGateway(index));
    const results = await Promise.allSettled(starting);
    for (const result of results) if (result.status === 'fulfilled') gateways.push(result.value);
    const failed = results.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
    if (options.liveProducts !== undefined) await seedLive(options.liveProducts, env);
    const commerce = await Promise.allSettled(
      (['live', 'test'] as const).map((environment) =>
        startService({
          name: `commerce-${environment}`,
          script: 'commerce/src/main.ts',
          port: environment === 'live' ? livePort : testPort,
          env: { ...env, ...options.commerceEnv, COMMERCE_ENV: environment },
          readyPath: '/readyz',
        }),
      ),
    );
    for (const result of commerce) if (result.status === 'fulfilled') started.push(result.value);
    const failedCommerce = commerce.find((result) => result.status === 'rejected');
    if (failedCommerce) throw failedCommerce.reason;
    const [live, test] = started as [Service, Service];
    const keygate = (...args: string[]) => runNode('gateway/src/cli.ts', args, env);
    const callOn = (index: number, secret: string | null, path: string, init: RequestInit = {}) => {
      const headers = new Headers(init.headers);
      if (secret) headers.set('Authorization', `Bearer ${secret}`);
      const gateway = gateways[index];
      if (!gateway) throw new Error(`no gateway ${index}`);
      return fetch(`${gateway.url}${path}`, { ...init, headers });
    };
    return {
      get gateway() {
        return gateways[0] as Service;
      },
      gateways,
      live,
      test,
      dataDir: dir.path,
      env,
      keygate,
      async createKey({ name, env: keyEnv, scopes, extra = [] }) {
        const result = await keygate(
          'keys',
          'create',
          '--name',
          name,
          '--env',
          keyEnv,
          '--scopes',
          scopes.join(','),
          ...extra,
          '--json',
        );
        if (result.code !== 0) throw new Error(`keygate keys create failed: ${result.stderr}`);
        return JSON.parse(result.stdout);
      },
      call: (secret, path, init) => callOn(0, secret, path, init),
      callOn,
      async restartGateway(index, extraEnv) {
        const service = await startGateway(index, extraEnv);
        gateways[index] = service;
        return service;
      },
      async stop() {
        await stopAll();
        dir.remove();
      },
    };
  } catch (error) {
    await stopAll();
    dir.remove();
    throw error;
  }
}
