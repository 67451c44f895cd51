import { freePort, runNode, type Service, startService, tempDir } from './processes.ts';

/** Gateway + commerce live + commerce test as real processes on free ports, one temp data dir. */
export interface System {
  gateway: Service;
  live: Service;
  test: Service;
  dataDir: string;
  /** Environment shared by every process (and the CLI). */
  env: Record<string, string>;
  /** Runs `pnpm keygate …` (the operator CLI) against this system's data dir. */
  keygate: (...args: string[]) => Promise<{ code: number | null; stdout: string; stderr: string }>;
  /** Creates a key with the CLI and returns its `{id, prefix, secret}`. */
  createKey: (options: {
    name: string;
    env: 'live' | 'test';
    scopes: string[];
    extra?: string[];
  }) => Promise<{ id: string; prefix: string; secret: string }>;
  /** fetch() through the gateway with a bearer key. */
  call: (secret: string | null, path: string, init?: RequestInit) => Promise<Response>;
  stop: () => Promise<void>;
}

export async function startSystem(extraGatewayEnv: Record<string, string> = {}): Promise<System> {
  const dir = tempDir();
  const [gatewayPort, livePort, testPort] = [await freePort(), await freePort(), await freePort()];
  const env: Record<string, string> = {
    KEYGATE_DATA_DIR: dir.path,
    GATEWAY_PORT: String(gatewayPort),
    COMMERCE_LIVE_PORT: String(livePort),
    COMMERCE_TEST_PORT: String(testPort),
    KEYGATE_UPSTREAM_LIVE: `http://127.0.0.1:${livePort}`,
    KEYGATE_UPSTREAM_TEST: `http://127.0.0.1:${testPort}`,
    KEYGATE_JWKS_URL: `http://127.0.0.1:${gatewayPort}/.well-known/jwks.json`,
    KEYGATE_USAGE_FLUSH_MS: '200',
  };
  const started: Service[] = [];
  try {
    const gateway = await startService({
      name: 'gateway',
      script: 'gateway/src/main.ts',
      port: gatewayPort,
      env: { ...env, ...extraGatewayEnv },
    });
    started.push(gateway);
    const live = await startService({
      name: 'commerce-live',
      script: 'commerce/src/main.ts',
      port: livePort,
      env: { ...env, COMMERCE_ENV: 'live' },
      readyPath: '/readyz',
    });
    started.push(live);
    const test = await startService({
      name: 'commerce-test',
      script: 'commerce/src/main.ts',
      port: testPort,
      env: { ...env, COMMERCE_ENV: 'test' },
      readyPath: '/readyz',
    });
    started.push(test);
    const keygate = (...args: string[]) => runNode('gateway/src/cli.ts', args, env);
    return {
      gateway,
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
      call(secret, path, init = {}) {
        const headers = new Headers(init.headers);
        if (secret) headers.set('Authorization', `Bearer ${secret}`);
        return fetch(`${gateway.url}${path}`, { ...init, headers });
      },
      async stop() {
        await Promise.all(started.map((s) => s.stop()));
        dir.remove();
      },
    };
  } catch (error) {
    await Promise.all(started.map((s) => s.stop()));
    dir.remove();
    throw error;
  }
}
