// A bounded local load on commerce alone, for profiles and CPU per request (no gateway, no wrk):
//   node bench/commerce/drive.ts [--products N] [--requests N] [--connections N] [--rounds N]
//        [--only id,id] [--node-args='--cpu-prof --cpu-prof-dir=DIR'] [--db FILE]
// It seeds a live database (kept in the OS temp dir per product count, reused), starts
// commerce on a free port with a fresh identity key in KEYGATE_JWKS_FILE, and for each scenario
// signs every assertion it will send before the measured window (replay protection accepts each
// one once), then sends them over keep-alive connections. Commerce CPU per request is its process
// CPU time (/proc/<pid>/stat user+system) over the window divided by the requests it served, which
// stays comparable on a shared machine where rps does not.
import { existsSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createIdentitySigner, generateIdentityKeyPair } from '../../packages/identity/src/index.ts';
import { cpuMicros } from '../lib/cpu.ts';
import { freePort, runToEnd, startChild, stopAll, tempDir, waitForOk } from '../lib/processes.ts';
import { COMMERCE_NODE_ARGS } from '../lib/stack.ts';
import { COMMERCE_SCENARIOS, type CommerceScenario } from './scenarios.ts';

const { values } = parseArgs({
  options: {
    products: { type: 'string', default: '10000' },
    requests: { type: 'string', default: '2000' },
    connections: { type: 'string', default: '8' },
    rounds: { type: 'string', default: '3' },
    only: { type: 'string' },
    'node-args': { type: 'string', default: '' },
    db: { type: 'string' },
  },
});
const PRODUCTS = Number(values.products);
const REQUESTS = Number(values.requests);
const CONNECTIONS = Number(values.connections);
const ROUNDS = Number(values.rounds);
const only = values.only?.split(',') ?? null;
const scenarios = COMMERCE_SCENARIOS.filter((s) => only === null || only.includes(s.id));

async function seededDatabase(): Promise<string> {
  const file = values.db ?? join(tmpdir(), `keygate-commerce-${PRODUCTS}.db`);
  if (!existsSync(file)) {
    await runToEnd('seed', process.execPath, [
      'commerce/src/seed-cli.ts',
      '--env',
      'live',
      '--products',
      String(PRODUCTS),
      '--db',
      file,
    ]);
  }
  return file;
}

function send(agent: Agent, port: number, path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

async function main(): Promise<void> {
  const dir = tempDir('keygate-commerce-drive-');
  const db = await seededDatabase();
  const { privateJwk } = await generateIdentityKeyPair();
  const signer = await createIdentitySigner({ privateJwk, ttlSeconds: 600 });
  const jwksFile = join(dir, 'jwks.json');
  writeFileSync(jwksFile, JSON.stringify(signer.jwks));
  const port = await freePort();
  const nodeArgs = values['node-args'].split(' ').filter(Boolean);
  const child = startChild(
    'commerce',
    process.execPath,
    [...nodeArgs, ...COMMERCE_NODE_ARGS, 'commerce/src/main.ts'],
    {
      COMMERCE_ENV: 'live',
      COMMERCE_PORT: String(port),
      COMMERCE_DB_FILE: db,
      KEYGATE_DATA_DIR: dir,
      KEYGATE_JWKS_FILE: jwksFile,
      LOG_LEVEL: 'warn',
    },
  );
  await waitForOk(child, `http://127.0.0.1:${port}/healthz`);
  const pid = child.process.pid!;
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  let n = 0;
  const sign = (s: CommerceScenario) =>
    signer.sign(
      {
        keyId: 'key_bench',
        environment: 'live',
        scopes: ['article:r', 'pricing:r', 'customer:r'],
        secretId: 'sec_bench',
        method: 'GET',
        path: s.path,
        requestId: `req_drive_${process.pid}_${n++}`,
      },
      'commerce',
    );
  const run = async (s: CommerceScenario, count: number) => {
    const tokens = await Promise.all(Array.from({ length: count }, () => sign(s)));
    const before = cpuMicros(pid, false);
    const started = process.hrtime.bigint();
    let next = 0;
    let bad = 0;
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (next < tokens.length) {
          const token = tokens[next++]!;
          const status = await send(agent, port, s.path, { ...s.headers, 'X-Keygate-Identity': token });
          if (status !== 200) bad++;
        }
      }),
    );
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const cpu = cpuMicros(pid, false) - before;
    if (bad > 0) throw new Error(`${s.id}: ${bad} of ${count} answers were not 200`);
    return { micros: cpu / count, rps: count / seconds };
  };
  for (const s of scenarios) await run(s, Math.min(REQUESTS, 300)); // warm up every scenario
  const results = new Map<string, Array<{ micros: number; rps: number }>>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const s of scenarios) {
      const r = await run(s, REQUESTS);
      results.set(s.id, [...(results.get(s.id) ?? []), r]);
    }
  }
  const rss =
    Number(
      /VmRSS:\s+(\d+)/.exec(
        await import('node:fs').then((fs) => fs.readFileSync(`/proc/${pid}/status`, 'utf8')),
      )?.[1],
    ) / 1024;
  for (const s of scenarios) {
    const rs = results.get(s.id)!;
    const micros = rs.map((r) => r.micros).sort((a, b) => a - b);
    const median = micros[Math.floor(micros.length / 2)]!;
    process.stdout.write(
      `${s.id.padEnd(18)} cpu/req ${median.toFixed(0).padStart(6)} µs  (runs ${micros.map((m) => m.toFixed(0)).join(', ')})  rps ${rs.map((r) => r.rps.toFixed(0)).join(', ')}\n`,
    );
  }
  process.stdout.write(`commerce RSS ${rss.toFixed(0)} MiB (${PRODUCTS} products)\n`);
  agent.destroy();
  child.process.kill('SIGTERM');
  await new Promise((r) => child.process.once('exit', r));
}

main()
  .catch((error) => {
    process.stderr.write(`${error instanceof Error ? error.stack : error}\n`);
    process.exitCode = 1;
  })
  .finally(() => stopAll());
