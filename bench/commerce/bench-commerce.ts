// The commerce part of `pnpm bench` (issue #24), kept beside run.ts so its hooks there stay small:
// the commerce scenarios, a second commerce with 100,000 products behind its own gateway, commerce
// process CPU per request (what the commerce targets are judged by, with rps beside), the targets
// and commerce RSS. The mixed run (issue #46) interleaves cart-line changes with catalogue pages.
import { join } from 'node:path';
import { cpuMicros } from '../lib/cpu.ts';
import { rssMiB } from '../lib/memory.ts';
import { freePort, onMeasuredCore, runToEnd, startChild, tempDir, waitForOk } from '../lib/processes.ts';
import { median, type Summary, type Target, target } from '../lib/report.ts';
import { COMMERCE_NODE_ARGS, pidOf, type Stack, seedKeys, startGateway } from '../lib/stack.ts';
import { GOLD_CUSTOMER, GRAPHQL_PRODUCTS_QUERY } from './scenarios.ts';

/** The scenario shape of run.ts, plus the commerce process whose CPU the run is judged by. */
export interface CommerceBenchScenario {
  id: string;
  label: string;
  url: string;
  headers: Record<string, string>;
  connections: number;
  commercePid?: number;
  /** wrk's request mix (see lib/wrk.ts), instead of one request again and again. */
  script?: string;
}

export const LARGE_CATALOGUE = 100_000;
const NODE = process.execPath;
const CATALOG = '/v2/catalog/products?limit=50';

/** A commerce of `products` products behind its own gateway (memory mode, one live key). */
export interface CommerceBehindGateway {
  gatewayUrl: string;
  commercePid: number;
  token: string;
}

/** Seeds a live database of `products` products and starts commerce and a gateway in front of it. */
export async function startLargeCommerce(options: {
  products: number;
  expressUrl: string;
  logLevel: string;
  log: (line: string) => void;
}): Promise<CommerceBehindGateway> {
  const dir = tempDir('keygate-bench-commerce-');
  options.log(`seeding a second commerce (${options.products} products)`);
  const db = join(dir, 'commerce-live.db');
  const [keys] = await Promise.all([
    seedKeys(['--db', join(dir, 'gw/gateway.db'), '--key', 'live']),
    runToEnd('seed-commerce-large', NODE, [
      'commerce/src/seed-cli.ts',
      '--env',
      'live',
      '--products',
      String(options.products),
      '--db',
      db,
    ]),
  ]);
  const [commercePort, gatewayPort] = await Promise.all([freePort(), freePort()]);
  const commerceUrl = `http://127.0.0.1:${commercePort}`;
  // On the measured core, as the other commerce (see stack.ts).
  const child = startChild(
    'commerce (large)',
    ...onMeasuredCore(NODE, [...COMMERCE_NODE_ARGS, 'commerce/src/main.ts']),
    {
      COMMERCE_ENV: 'live',
      COMMERCE_PORT: String(commercePort),
      COMMERCE_DB_FILE: db,
      KEYGATE_DATA_DIR: join(dir, 'commerce'),
      KEYGATE_JWKS_URL: `http://127.0.0.1:${gatewayPort}/.well-known/jwks.json`,
      LOG_LEVEL: 'warn',
    },
  );
  await waitForOk(child, `${commerceUrl}/healthz`);
  const gateway = await startGateway(
    'gateway (commerce, large catalogue)',
    {
      KEYGATE_DATA_DIR: join(dir, 'gw'),
      KEYGATE_UPSTREAM_LIVE: commerceUrl,
      KEYGATE_UPSTREAM_TEST: options.expressUrl,
    },
    options.logLevel,
    gatewayPort,
  );
  return { gatewayUrl: gateway.url, commercePid: child.process.pid ?? 0, token: keys.live! };
}

/** The cart line the mixed run changes: its path for `PATCH {qty}`, on the catalogue key's cart. */
export interface MixedRun {
  linePath: string;
}

/**
 * Creates, through the commerce gateway with the catalogue's key, the cart whose one line the mixed
 * run changes, and checks that a change answers 200 (any other answer would measure nothing).
 */
export async function prepareMixedRun(stack: Stack): Promise<MixedRun> {
  const gw = stack.gateways.commerce.url;
  const headers = {
    Authorization: `Bearer ${stack.tokens.commerceLive}`,
    'Content-Type': 'application/json',
  };
  const call = async (method: string, path: string, body: unknown, status: number) => {
    const res = await fetch(gw + path, { method, headers, body: JSON.stringify(body) });
    const text = await res.text();
    if (res.status !== status)
      throw new Error(`mixed run: ${method} ${path} answered ${res.status}: ${text}`);
    return JSON.parse(text) as { id: string };
  };
  const cart = await call('POST', '/v2/carts', { channel: 'WEB_DE' }, 201);
  await call('POST', `/v2/carts/${cart.id}/items`, { sku: MIXED_SKU, qty: 1 }, 200);
  const linePath = `/v2/carts/${cart.id}/items/${MIXED_SKU}`;
  await call('PATCH', linePath, { qty: 2 }, 200);
  return { linePath };
}

const MIXED_SKU = 'KG-00002';

/**
 * A wrk mix: every `every`-th request is `method path` (with a JSON `{"qty": 1..5}` body in turn,
 * unless GET, and the run's headers), the others the page of the command line (its URL and
 * headers). The requests are formatted once per thread.
 */
export function everyNthScript(every: number, method: string, path: string): string {
  const body = method === 'GET' ? 'nil' : `'{"qty":' .. qty .. '}'`;
  return `
local page
local other = {}
local sent = 0
init = function(args)
  page = wrk.format()
  for qty = 1, 5 do
    local headers = { ["Content-Type"] = "application/json" }
    for name, value in pairs(wrk.headers) do headers[name] = value end
    other[qty] = wrk.format("${method}", ${JSON.stringify(path)}, headers, ${body})
  end
end
request = function()
  sent = sent + 1
  if sent % ${every} == 0 then return other[(sent / ${every}) % 5 + 1] end
  return page
end
`;
}

/** wrk's mix for the mixed run: every tenth request sets the cart line's quantity (1 to 5 in turn). */
export const mixedScript = (run: MixedRun): string => everyNthScript(10, 'PATCH', run.linePath);

/** The commerce scenarios besides run.ts's catalogue, GraphQL and bare Express ones. */
export function commerceScenarios(
  stack: Stack,
  large: CommerceBehindGateway | null,
  mixed: MixedRun | null = null,
): CommerceBenchScenario[] {
  const gw = stack.gateways.commerce.url;
  const auth = { Authorization: `Bearer ${stack.tokens.commerceLive}` };
  const channel = { 'X-Channel': 'WEB_DE' };
  const pid = stack.commercePid;
  const scenarios: CommerceBenchScenario[] = [
    {
      id: 'commerce-express-gw',
      label: "bare Express JSON route, via gateway (its CPU is the bare server's)",
      url: `${gw}${CATALOG}`,
      headers: { Authorization: `Bearer ${stack.tokens.commerceTest}`, ...channel },
      connections: 32,
      commercePid: pidOf(stack.expressUrl),
    },
    {
      id: 'commerce-catalog',
      label: 'commerce catalogue (50 of 10,000, anonymous), via gateway',
      url: gw + CATALOG,
      headers: { ...auth, ...channel },
      connections: 32,
      commercePid: pid,
    },
    {
      id: 'commerce-catalog-customer',
      label: 'commerce catalogue (50 of 10,000, gold customer with agreements), via gateway',
      url: `${gw}${CATALOG}&customer=${GOLD_CUSTOMER}`,
      headers: { ...auth, ...channel },
      connections: 32,
      commercePid: pid,
    },
    {
      id: 'commerce-graphql',
      label: 'commerce GraphQL products(first: 50) { id sku name price(tier) stock }, via gateway',
      url: `${gw}/v2/graphql?query=${encodeURIComponent(GRAPHQL_PRODUCTS_QUERY)}`,
      headers: auth,
      connections: 32,
      commercePid: pid,
    },
    {
      id: 'commerce-pricing-c1',
      label: 'commerce customer pricing (page of 100, gold customer), via gateway',
      url: `${gw}/v2/customers/${GOLD_CUSTOMER}/pricing?limit=100`,
      headers: auth,
      connections: 1,
      commercePid: pid,
    },
  ];
  if (mixed) {
    scenarios.splice(2, 0, {
      id: 'commerce-mixed',
      label:
        'commerce mixed: 90 % catalogue pages (as commerce-catalog), 10 % cart-line quantity changes, via gateway',
      url: gw + CATALOG,
      headers: { ...auth, ...channel },
      connections: 32,
      commercePid: pid,
      script: mixedScript(mixed),
    });
  }
  if (large) {
    scenarios.push({
      id: 'commerce-catalog-100k',
      label: `commerce catalogue (50 of ${LARGE_CATALOGUE.toLocaleString('en')}, anonymous), via gateway`,
      url: large.gatewayUrl + CATALOG,
      headers: { Authorization: `Bearer ${large.token}`, ...channel },
      connections: 32,
      commercePid: large.commercePid,
    });
  }
  return scenarios;
}

/** Commerce process CPU µs per request (user + system, every thread) of each scenario, per round. */
export const commerceCpuRuns = new Map<string, number[]>();

/**
 * Runs one measured load and, when the scenario names a commerce process, records that process's
 * CPU per request over the run: the commerce targets are judged by it, since rps on a shared
 * machine moves with everyone else's load.
 */
export async function withCommerceCpu<T extends { requests: number }>(
  scenario: { id: string; commercePid?: number },
  run: () => Promise<T>,
): Promise<T> {
  const pid = scenario.commercePid;
  if (pid === undefined) return run();
  const before = cpuMicros(pid, false);
  const result = await run();
  const used = cpuMicros(pid, false) - before;
  if (result.requests > 0) {
    commerceCpuRuns.set(scenario.id, [...(commerceCpuRuns.get(scenario.id) ?? []), used / result.requests]);
  }
  return result;
}

/**
 * The targets. Ratios are of commerce CPU per request (the slower's CPU in the
 * denominator, so 0.5 means "twice the CPU"), with the rps ratio of the same runs beside them in
 * the report; the bare Express route's own CPU is its server's.
 */
export function commerceTargets(
  results: Map<string, Summary>,
  large: CommerceBehindGateway | null,
): { targets: Target[]; lines: string[] } {
  const cpu = (id: string) => {
    const runs = commerceCpuRuns.get(id);
    return runs?.length ? median(runs) : null;
  };
  const targets: Target[] = [];
  const lines: string[] = [];
  const pair = (
    name: string,
    faster: number | null,
    slower: number | null,
    fasterId: string,
    slowerId: string,
    bound: number,
  ) => {
    if (faster === null || slower === null) return;
    targets.push(target(`${name}, commerce CPU per request`, faster / slower, '>=', bound));
    const a = results.get(slowerId)?.rps;
    const b = results.get(fasterId)?.rps;
    lines.push(
      `- ${name}: CPU ${faster.toFixed(0)} ÷ ${slower.toFixed(0)} µs per request = ${(faster / slower).toFixed(3)}` +
        (a && b ? `, rps ${Math.round(a)} ÷ ${Math.round(b)} = ${(a / b).toFixed(3)}` : ''),
    );
  };
  // The bare-route target allows commerce twice the bare route's CPU: 0.5 as a ratio.
  pair(
    'catalogue ÷ bare Express route (both via gateway)',
    cpu('commerce-express-gw'),
    cpu('commerce-catalog'),
    'commerce-express-gw',
    'commerce-catalog',
    0.5,
  );
  pair(
    'customer ÷ anonymous catalogue',
    cpu('commerce-catalog'),
    cpu('commerce-catalog-customer'),
    'commerce-catalog',
    'commerce-catalog-customer',
    0.85,
  );
  pair(
    'GraphQL ÷ REST page',
    cpu('commerce-catalog'),
    cpu('commerce-graphql'),
    'commerce-catalog',
    'commerce-graphql',
    0.7,
  );
  pair(
    '100,000 ÷ 10,000 products',
    cpu('commerce-catalog'),
    cpu('commerce-catalog-100k'),
    'commerce-catalog',
    'commerce-catalog-100k',
    0.9,
  );
  // The mixed run against pages alone: lower is better here, so the ratio is mixed ÷ pages.
  const mixed = cpu('commerce-mixed');
  const pages = cpu('commerce-catalog');
  if (mixed !== null && pages !== null) {
    targets.push(
      target(
        'mixed run (90 % catalogue pages, 10 % cart-line changes) ÷ catalogue pages alone, commerce CPU per request',
        mixed / pages,
        '<=',
        1.3,
      ),
    );
    const a = results.get('commerce-mixed')?.rps;
    const b = results.get('commerce-catalog')?.rps;
    lines.push(
      `- mixed run ÷ catalogue pages alone: CPU ${mixed.toFixed(0)} ÷ ${pages.toFixed(0)} µs per request = ${(mixed / pages).toFixed(3)}` +
        (a && b ? `, rps ${Math.round(a)} ÷ ${Math.round(b)} = ${(a / b).toFixed(3)}` : ''),
    );
  }
  const pricing = results.get('commerce-pricing-c1');
  if (pricing)
    targets.push(target('customer pricing, page of 100, p50 at 1 connection', pricing.p50Ms, '<=', 10, 'ms'));
  if (large)
    targets.push(
      target(`commerce RSS with ${LARGE_CATALOGUE} products`, rssMiB(large.commercePid), '<=', 200, 'MiB'),
    );
  const cpuLines = [...commerceCpuRuns].map(
    ([id, runs]) =>
      `- ${id}: ${median(runs).toFixed(0)} µs (rounds ${runs.map((r) => r.toFixed(0)).join(' / ')})`,
  );
  return {
    targets,
    lines: [...lines, 'Commerce process CPU per request (user + system, every thread):', ...cpuLines],
  };
}
