// `pnpm start`: commerce live, commerce test and the gateway as child processes sharing one
// data dir. Output is prefixed per process; Ctrl-C (or SIGTERM) stops all of them cleanly, and
// if one dies the others are stopped too.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { COMMERCE_NODE_FLAGS } from '../commerce/src/node-flags.ts';
import { GATEWAY_MALLOC_ENV, GATEWAY_NODE_FLAGS } from '../gateway/src/node-flags.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// Per-process settings must not leak from this shell into both commerce processes: live and test
// each get their own port and database file, derived from COMMERCE_ENV.
const { COMMERCE_DB_FILE: _dbFile, COMMERCE_PORT: _port, COMMERCE_ENV: _env, ...inherited } = process.env;
const gatewayPort = inherited.GATEWAY_PORT || '8080';
const livePort = inherited.COMMERCE_LIVE_PORT || '8081';
const testPort = inherited.COMMERCE_TEST_PORT || '8082';
// The ports given here are wired through (DESIGN.md, "Running it"): the gateway proxies to the
// commerce ports started here and commerce trusts this gateway's keys, unless the operator named
// other upstreams or another JWKS explicitly. Without this, a second keygate on other ports would
// proxy to (and take its keys from) the first one on the default ports.
const env = {
  ...inherited,
  KEYGATE_DATA_DIR: resolve(inherited.KEYGATE_DATA_DIR || 'data'),
  GATEWAY_PORT: gatewayPort,
  COMMERCE_LIVE_PORT: livePort,
  COMMERCE_TEST_PORT: testPort,
  KEYGATE_UPSTREAM_LIVE: inherited.KEYGATE_UPSTREAM_LIVE || `http://127.0.0.1:${livePort}`,
  KEYGATE_UPSTREAM_TEST: inherited.KEYGATE_UPSTREAM_TEST || `http://127.0.0.1:${testPort}`,
  KEYGATE_JWKS_URL: inherited.KEYGATE_JWKS_URL || `http://127.0.0.1:${gatewayPort}/.well-known/jwks.json`,
};

/** Newest modification time (ms) of the files under `dir`, skipping node_modules and dist. */
function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Builds the admin interface (Vite) when its build is missing or older than its sources. */
function buildAdminUiIfStale(): void {
  const uiDir = resolve(root, 'packages/admin-ui');
  const built = join(uiDir, 'dist/index.html');
  if (!existsSync(join(uiDir, 'package.json'))) return;
  if (existsSync(built) && statSync(built).mtimeMs >= newestMtime(uiDir)) return;
  process.stdout.write('building the admin interface (packages/admin-ui) …\n');
  const vite = resolve(uiDir, 'node_modules/vite/bin/vite.js');
  const result = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], {
    cwd: uiDir,
    stdio: 'inherit',
  });
  if (result.status !== 0) {
    process.stderr.write('admin interface build failed; the gateway will answer /admin with 503\n');
  }
}

buildAdminUiIfStale();

const services: Array<{
  name: string;
  script: string;
  env: Record<string, string>;
  nodeFlags?: readonly string[];
}> = [
  {
    name: 'commerce-live',
    script: 'commerce/src/main.ts',
    env: { COMMERCE_ENV: 'live' },
    nodeFlags: COMMERCE_NODE_FLAGS,
  },
  {
    name: 'commerce-test',
    script: 'commerce/src/main.ts',
    env: { COMMERCE_ENV: 'test' },
    nodeFlags: COMMERCE_NODE_FLAGS,
  },
  // The allocator settings the container image sets too: glibc then gives freed memory back.
  {
    name: 'gateway',
    script: 'gateway/src/main.ts',
    env: { ...GATEWAY_MALLOC_ENV },
    nodeFlags: GATEWAY_NODE_FLAGS,
  },
];

const children = new Map<string, ChildProcess>();
let stopping = false;
let exitCode = 0;

function pipe(name: string, stream: NodeJS.ReadableStream, out: NodeJS.WriteStream): void {
  const label = `${name.padEnd(13)} |`;
  createInterface({ input: stream }).on('line', (line) => out.write(`${label} ${line}\n`));
}

function stopAll(code: number): void {
  if (stopping) return;
  stopping = true;
  exitCode = code;
  for (const child of children.values()) child.kill('SIGTERM');
  setTimeout(() => {
    for (const child of children.values()) child.kill('SIGKILL');
  }, 10_000).unref();
}

for (const service of services) {
  const child = spawn(process.execPath, [...(service.nodeFlags ?? []), resolve(root, service.script)], {
    cwd: root,
    env: { ...env, ...service.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.set(service.name, child);
  pipe(service.name, child.stdout!, process.stdout);
  pipe(service.name, child.stderr!, process.stderr);
  child.on('exit', (code, signal) => {
    children.delete(service.name);
    if (!stopping) {
      process.stderr.write(`${service.name} exited (${signal ?? code}); stopping the others\n`);
      stopAll(code || 1);
    }
    if (children.size === 0) process.exit(exitCode);
  });
}

process.on('SIGINT', () => stopAll(0));
process.on('SIGTERM', () => stopAll(0));

async function waitForReady(url: string, deadline: number): Promise<boolean> {
  while (Date.now() < deadline && !stopping) {
    try {
      if ((await fetch(url)).ok) return true;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return false;
}

if (await waitForReady(`http://127.0.0.1:${gatewayPort}/healthz`, Date.now() + 60_000)) {
  process.stdout.write(
    [
      '',
      `keygate is up: gateway http://127.0.0.1:${gatewayPort} (data in ${env.KEYGATE_DATA_DIR})`,
      'Create a first key (the secret is printed once):',
      '  pnpm keygate keys create --name first --env test --scopes article:r,order:rw,stock:r,pricing:r --json',
      'Then call the API through the gateway:',
      `  curl -H "Authorization: Bearer <secret>" -H "X-Channel: WEB_DE" http://127.0.0.1:${gatewayPort}/v2/catalog/products`,
      `Admin interface: http://127.0.0.1:${gatewayPort}/admin — create an administrator first:`,
      '  pnpm keygate admin create-user --email you@example.com --password-stdin',
      'Ctrl-C stops everything.',
      '',
    ].join('\n'),
  );
}
