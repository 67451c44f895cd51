// Where the mixed run's commerce CPU goes (issue #46), with commerce alone on the measured core:
//   node bench/commerce/mix-probe.ts [--seconds N] [--rounds N] [--products N] [--node-args='…']
// No gateway: wrk (on the load cores) sends one key-bound assertion, as the gateway does in its
// default binding, so commerce verifies it once and every figure is commerce's own. Each round runs,
// on one commerce process: catalogue pages alone, the bench's mix (bench-commerce.ts `mixedScript`),
// cart-line PATCHes alone, and the same 1-in-10 mix with a cart GET instead of the PATCH. Besides CPU
// per request it prints what the mixes would cost if their requests cost what they cost alone: the
// difference is what mixing itself costs.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createIdentitySigner, generateIdentityKeyPair } from '../../packages/identity/src/index.ts';
import { cpuMicrosPerRequest } from '../lib/cpu.ts';
import {
  freePort,
  onMeasuredCore,
  pinBenchToLoadCores,
  runToEnd,
  startChild,
  stopAll,
  tempDir,
  waitForOk,
} from '../lib/processes.ts';
import { median } from '../lib/report.ts';
import { COMMERCE_NODE_ARGS } from '../lib/stack.ts';
import { createLoadRunner } from '../lib/wrk.ts';
import { everyNthScript as everyNth, mixedScript } from './bench-commerce.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
    products: { type: 'string', default: '10000' },
    'node-args': { type: 'string', default: '' },
  },
});
const CATALOG = '/v2/catalog/products?limit=50';

async function main(): Promise<void> {
  process.stdout.write(`${pinBenchToLoadCores()}\n`);
  const dir = tempDir('keygate-mix-probe-');
  const db = join(dir, 'commerce-live.db');
  await runToEnd('seed', process.execPath, [
    'commerce/src/seed-cli.ts',
    '--env',
    'live',
    '--products',
    values.products,
    '--db',
    db,
  ]);
  const { privateJwk } = await generateIdentityKeyPair();
  const signer = await createIdentitySigner({ privateJwk, ttlSeconds: 3600 });
  writeFileSync(join(dir, 'jwks.json'), JSON.stringify(signer.jwks));
  const identity = await signer.sign(
    { keyId: 'key_probe', environment: 'live', scopes: ['article:r', 'order:rw'], secretId: 'sec_probe' },
    'commerce',
  );
  const port = await freePort();
  const nodeArgs = values['node-args'].split(' ').filter(Boolean);
  const child = startChild(
    'commerce',
    ...onMeasuredCore(process.execPath, [...nodeArgs, ...COMMERCE_NODE_ARGS, 'commerce/src/main.ts']),
    {
      COMMERCE_ENV: 'live',
      COMMERCE_PORT: String(port),
      COMMERCE_DB_FILE: db,
      KEYGATE_DATA_DIR: dir,
      KEYGATE_JWKS_FILE: join(dir, 'jwks.json'),
      LOG_LEVEL: 'warn',
    },
  );
  const base = `http://127.0.0.1:${port}`;
  await waitForOk(child, `${base}/healthz`);
  const headers = { 'X-Keygate-Identity': identity, 'Content-Type': 'application/json' };
  const post = async (path: string, body: unknown) => {
    const res = await fetch(base + path, { method: 'POST', headers, body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`POST ${path} answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as { id: string };
  };
  const cart = await post('/v2/carts', { channel: 'WEB_DE' });
  await post(`/v2/carts/${cart.id}/items`, { sku: 'KG-00002', qty: 1 });
  const linePath = `/v2/carts/${cart.id}/items/KG-00002`;
  const runs: Array<{ id: string; script?: string }> = [
    { id: 'pages' },
    { id: 'mixed (the bench mix)', script: mixedScript({ linePath }) },
    { id: 'PATCH alone', script: everyNth(1, 'PATCH', linePath) },
    { id: 'GET cart alone', script: everyNth(1, 'GET', `/v2/carts/${cart.id}`) },
    { id: '1 in 10 a cart GET', script: everyNth(10, 'GET', `/v2/carts/${cart.id}`) },
  ];
  const load = createLoadRunner(dir);
  const pid = child.process.pid ?? 0;
  const measure = async (run: { script?: string }, seconds: number) => {
    const { result, micros } = await cpuMicrosPerRequest([pid], () =>
      load({
        url: base + CATALOG,
        headers: { 'X-Keygate-Identity': identity, 'X-Channel': 'WEB_DE' },
        connections: 32,
        seconds,
        script: run.script,
      }),
    );
    if (result.errors > 0 || micros === null) throw new Error(`a run had ${result.errors} errors`);
    return micros;
  };
  for (const run of runs) await measure(run, 2);
  const cpu = new Map<string, number[]>();
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const run of runs)
      cpu.set(run.id, [...(cpu.get(run.id) ?? []), await measure(run, Number(values.seconds))]);
  }
  const of = (id: string) => median(cpu.get(id) ?? []);
  for (const [id, rounds] of cpu) {
    const list = rounds.map((r) => r.toFixed(0)).join(' / ');
    process.stdout.write(
      `${id.padEnd(22)} ${of(id).toFixed(1).padStart(6)} µs per request (rounds ${list})\n`,
    );
  }
  const pages = of('pages');
  const line = (id: string, alone: string) => {
    const expected = 0.9 * pages + 0.1 * of(alone);
    process.stdout.write(
      `${id}: ÷ pages ${(of(id) / pages).toFixed(3)}; at the cost of each request alone ${expected.toFixed(1)} µs ` +
        `(÷ pages ${(expected / pages).toFixed(3)}), so mixing adds ${(of(id) - expected).toFixed(1)} µs per request\n`,
    );
  };
  line('mixed (the bench mix)', 'PATCH alone');
  line('1 in 10 a cart GET', 'GET cart alone');
}

main()
  .catch((error) => {
    process.stderr.write(`${error instanceof Error ? error.stack : error}\n`);
    process.exitCode = 1;
  })
  .finally(() => stopAll());
