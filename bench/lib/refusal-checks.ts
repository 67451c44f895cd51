// The refusal figures beside the measured scenarios (#36): RSS after 100,000 unique garbage tokens,
// 200 first calls at once on a fresh instance (SQLite and Redis), and another key's p95 during a
// burst of 200 unique wrong secrets.
import { MEMORY_TARGETS, rssMiB } from './memory.ts';
import { tempDir } from './processes.ts';
import { firstCallsAtOnce, p95DuringBurst } from './refusals.ts';
import { median, type Summary, type Target, target } from './report.ts';
import type { Stack } from './stack.ts';
import { createLoadRunner } from './wrk.ts';

/** Garbage tokens the RSS figure is read after, at least. */
const GARBAGE_TOKENS = 100_000;
const ROUTE = '/v2/catalog/products';

export interface RefusalCheckOptions {
  stack: Stack;
  /** The scenarios that ran, with their tokens file when they are refusals. */
  scenarios: ReadonlyArray<{ id: string; url: string; connections: number; tokensFile?: string }>;
  results: Map<string, Summary>;
  /** BENCH_ONLY's ids, or null for everything (`first-calls` and `burst-p95` name the checks here). */
  only: readonly string[] | null;
  seconds: number;
  rounds: number;
  logLevel: string;
  log: (line: string) => void;
}

/** Runs the checks that apply, and returns their report lines and targets. */
export async function runRefusalChecks(
  options: RefusalCheckOptions,
): Promise<{ lines: string[]; targets: Target[] }> {
  const { stack, only, log } = options;
  const lines: string[] = [];
  const targets: Target[] = [];
  const unknown = options.scenarios.find((scenario) => scenario.id === 'refuse-unknown');
  if (unknown?.tokensFile) {
    // The refusal runs sent about rps × seconds each; more unknown tokens until 100,000 have gone.
    let sent = ['refuse-unknown', 'refuse-wrong']
      .flatMap((id) => options.results.get(id)?.rounds ?? [])
      .reduce((sum, rps) => sum + rps * options.seconds, 0);
    const load = createLoadRunner(tempDir('keygate-bench-garbage-'));
    while (sent < GARBAGE_TOKENS) {
      sent += (await load({ ...unknown, headers: {}, seconds: 5 })).requests;
    }
    const rss = rssMiB(stack.gateways.memory.pid);
    lines.push(
      `- RSS of the memory-mode gateway after about ${Math.round(sent).toLocaleString('en')} unique garbage tokens: ${rss.toFixed(1)} MiB`,
    );
    targets.push(
      target(
        'RSS after 100,000 unique garbage tokens, memory mode',
        rss,
        '<=',
        MEMORY_TARGETS.afterLoad,
        ' MiB',
      ),
    );
  }
  if (!only || only.includes('first-calls')) {
    for (const backend of ['SQLite', 'Redis'] as const) {
      log(`first calls: 200 distinct keys at once on a fresh ${backend} instance`);
      const result = await firstCallsAtOnce({
        backend,
        dataDir: tempDir('keygate-bench-first-'),
        redisUrl: stack.redisUrl,
        upstreamUrl: stack.noopUrl,
        route: ROUTE,
        logLevel: options.logLevel,
      });
      lines.push(`- 200 first calls at once, ${backend}: answers ${JSON.stringify(result.statuses)}`);
      targets.push(
        target(`200 distinct keys' first calls at once, ${backend}: answered 200`, result.ok, '=', 200),
      );
    }
  }
  if (!only || only.includes('burst-p95')) {
    log('p95 of another key during bursts of 200 unique wrong secrets');
    const burst = await p95DuringBurst({
      gateway: stack.gateways.memory,
      route: ROUTE,
      otherToken: stack.tokens.memory,
      victimToken: stack.tokens.memoryTest,
      rounds: Math.max(3, options.rounds),
    });
    const ms = (values: number[]) => values.map((value) => value.toFixed(2)).join(' / ');
    lines.push(
      `- another key's p95 (200 calls, 8 at a time), ms: without a burst ${ms(burst.quiet)}; during a burst of 200 unique wrong secrets ${ms(burst.burst)}`,
    );
    const ratio = {
      value: median(burst.ratios),
      low: Math.min(...burst.ratios),
      high: Math.max(...burst.ratios),
    };
    targets.push(
      target("another key's p95 during a burst of 200 unique wrong secrets ÷ without", ratio, '<=', 2),
    );
  }
  return { lines: lines.length ? ['', 'Refusals (#36):', ...lines] : [], targets };
}
