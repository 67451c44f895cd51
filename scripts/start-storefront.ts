// `pnpm start:storefront`: the storefront starter (packages/storefront) against the gateway that
// `pnpm start` runs. Without a configured key it creates a least-privilege *test* key with the
// operator CLI and saves it in the storefront's git-ignored .env.local (the secret is never
// printed); it registers the shop's webhook receiver once; it builds the shop when the build is
// missing or older than its sources; then `next start`. Ctrl-C stops it.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const shopDir = join(root, 'packages/storefront');
const nextBin = join(shopDir, 'node_modules/next/dist/bin/next');
/** The scopes the shop needs and no more: read the catalogue, stock and prices, place orders. */
const SCOPES = ['article:r', 'order:rw', 'stock:r', 'pricing:r'];
const STOCK_EVENTS = ['stock.updated', 'stock.out_of_stock', 'stock.back_in_stock'];

function fail(message: string): never {
  process.stderr.write(`config error: ${message}\n`);
  process.exit(1);
}

function portOf(name: string, fallback: string): string {
  const value = process.env[name] ?? fallback;
  if (!/^\d{1,5}$/.test(value) || Number(value) < 1 || Number(value) > 65535) {
    fail(`${name} must be a port number 1..65535, got ${JSON.stringify(value)}`);
  }
  return value;
}

const env = { ...process.env, KEYGATE_DATA_DIR: resolve(process.env.KEYGATE_DATA_DIR ?? 'data') };
const shopPort = portOf('STOREFRONT_PORT', '3000');
const shopHost = process.env.STOREFRONT_HOST ?? '127.0.0.1';
const gatewayUrl = process.env.KEYGATE_BASE_URL ?? `http://127.0.0.1:${portOf('GATEWAY_PORT', '8080')}`;
/** Where the key is kept: the storefront's .env.local unless STOREFRONT_ENV_FILE names another file. */
const envFile = resolve(process.env.STOREFRONT_ENV_FILE ?? join(shopDir, '.env.local'));

/** KEY=value lines of a dotenv file (no expansion; # comments). */
function readEnvFile(path: string): Record<string, string> {
  if (!existsSync(path)) return {};
  const values: Record<string, string> = {};
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const match = /^\s*([A-Z0-9_]+)\s*=\s*(.*?)\s*$/.exec(line);
    if (match?.[1]) values[match[1]] = (match[2] ?? '').replace(/^"(.*)"$/, '$1');
  }
  return values;
}

function writeEnvFile(path: string, values: Record<string, string>): void {
  const lines = Object.entries(values).map(([key, value]) => `${key}=${value}`);
  writeFileSync(
    path,
    `# Written by pnpm start:storefront. Secrets: keep this file out of git (it is ignored).\n${lines.join('\n')}\n`,
    { mode: 0o600 },
  );
  chmodSync(path, 0o600);
}

/** Runs the operator CLI (`pnpm keygate …`) on the same data dir / Redis as `pnpm start`. */
function keygate(args: string[]): string {
  const result = spawnSync(process.execPath, [join(root, 'gateway/src/cli.ts'), ...args], {
    env,
    encoding: 'utf8',
  });
  if (result.status !== 0) {
    throw new Error(`pnpm keygate ${args.slice(0, 2).join(' ')} failed: ${result.stderr.trim()}`);
  }
  return result.stdout;
}

function createTestKey(name: string, scopes: string[]): { id: string; prefix: string; secret: string } {
  return JSON.parse(
    keygate(['keys', 'create', '--name', name, '--env', 'test', '--scopes', scopes.join(','), '--json']),
  );
}

/**
 * Registers the shop's receiver for stock events with a short-lived webhook:rw test key (revoked
 * right after, so the shop's own key stays least-privilege); returns the endpoint's secret or null.
 */
async function registerWebhook(): Promise<string | null> {
  const setup = createTestKey('storefront-webhook-setup', ['webhook:rw']);
  try {
    const res = await fetch(`${gatewayUrl}/v2/webhooks/endpoints`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${setup.secret}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        url: `http://${shopHost === '0.0.0.0' ? '127.0.0.1' : shopHost}:${shopPort}/api/webhooks/keygate`,
        description: 'storefront catalogue cache (pnpm start:storefront)',
        eventTypes: STOCK_EVENTS,
      }),
    });
    const body = (await res.json()) as { secret?: string; code?: string; detail?: string };
    if (res.status === 201 && body.secret) return body.secret;
    process.stdout.write(
      `storefront: webhook receiver not registered (${body.code ?? res.status}: ${body.detail ?? ''}).\n` +
        (body.code === 'ENDPOINT_URL_NOT_ALLOWED'
          ? '  Restart the system with KEYGATE_WEBHOOKS_ALLOW_PRIVATE=true pnpm start to deliver to this machine.\n'
          : '') +
        '  Prices and stock still refresh every 5 minutes.\n',
    );
    return null;
  } finally {
    keygate(['keys', 'revoke', setup.id]);
  }
}

/** Newest modification time (ms) of the shop's sources (skipping node_modules, .next, .tsbuild). */
function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (['node_modules', '.next', '.tsbuild'].includes(entry.name) || entry.name.startsWith('.env')) continue;
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

function buildIfStale(): void {
  const built = join(shopDir, '.next/BUILD_ID');
  if (existsSync(built) && statSync(built).mtimeMs >= newestMtime(shopDir)) return;
  process.stdout.write('storefront: building (next build) …\n');
  const result = spawnSync(process.execPath, [nextBin, 'build'], {
    cwd: shopDir,
    stdio: 'inherit',
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
  });
  if (result.status !== 0) fail('next build failed (see above)');
}

async function main(): Promise<void> {
  const saved = readEnvFile(envFile);
  const values: Record<string, string> = { ...saved };
  if (!process.env.KEYGATE_API_KEY && !saved.KEYGATE_API_KEY) {
    const key = createTestKey('storefront', SCOPES);
    values.KEYGATE_API_KEY = key.secret;
    values.KEYGATE_BASE_URL = gatewayUrl;
    process.stdout.write(
      `storefront: created the test key ${key.prefix} (${SCOPES.join(', ')}) with the operator CLI and saved it to ${envFile}.\n` +
        '  To use a live key instead, put KEYGATE_API_KEY (and KEYGATE_BASE_URL) there or in the environment.\n',
    );
  }
  const apiKey = process.env.KEYGATE_API_KEY ?? values.KEYGATE_API_KEY ?? '';
  const wantsWebhook = !process.env.KEYGATE_WEBHOOK_SECRET && !values.KEYGATE_WEBHOOK_SECRET;
  if (wantsWebhook && apiKey.startsWith('kg_test_')) {
    const secret = await registerWebhook();
    if (secret) {
      values.KEYGATE_WEBHOOK_SECRET = secret;
      process.stdout.write(
        'storefront: registered the webhook receiver for stock events; its secret is saved too.\n',
      );
    }
  }
  if (JSON.stringify(values) !== JSON.stringify(saved)) writeEnvFile(envFile, values);
  buildIfStale();
  process.stdout.write(
    `storefront: http://${shopHost}:${shopPort}/ against ${values.KEYGATE_BASE_URL ?? gatewayUrl}\n`,
  );
  // Values from the environment win over the file, as with Next's own .env.local loading.
  const child = spawn(process.execPath, [nextBin, 'start', '--port', shopPort, '--hostname', shopHost], {
    cwd: shopDir,
    stdio: 'inherit',
    env: { ...values, ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
  child.on('exit', (code) => process.exit(code ?? 0));
}

main().catch((error: unknown) => {
  process.stderr.write(`storefront: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
