import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import type { Measurement } from './wrk.ts';

/** The median of each figure over the rounds. */
export interface Summary {
  rps: number;
  p50Ms: number;
  p99Ms: number;
  /** Every round's rps, in order, to show the spread. */
  rounds: number[];
  /** Every round's p50 (ms), in order. */
  p50Rounds: number[];
  errors: number;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function summarize(runs: readonly Measurement[]): Summary {
  return {
    rps: median(runs.map((run) => run.rps)),
    p50Ms: median(runs.map((run) => run.p50Ms)),
    p99Ms: median(runs.map((run) => run.p99Ms)),
    rounds: runs.map((run) => run.rps),
    p50Rounds: runs.map((run) => run.p50Ms),
    errors: runs.reduce((sum, run) => sum + run.errors, 0),
  };
}

/** A figure compared within each round: the median over the rounds, and the lowest and highest round. */
export interface Paired {
  value: number;
  low: number;
  high: number;
}

function pairedOver(values: readonly number[]): Paired {
  return { value: median(values), low: Math.min(...values), high: Math.max(...values) };
}

/**
 * a's rps ÷ b's, taken in each round (where the two ran minutes apart at most, mostly one after
 * the other), then the median over the rounds. Drift of the machine's speed between rounds (other
 * guests on the host, which steal does not show) divides out of each round's ratio; a ratio of the
 * two medians keeps it, as the rounds' medians may come from different moments.
 */
export function pairedRatio(a: Summary, b: Summary): Paired {
  return pairedOver(a.rounds.map((rps, round) => rps / b.rounds[round]!));
}

/** a's p50 − b's p50 (ms), taken in each round, then the median over the rounds. */
export function pairedP50Difference(a: Summary, b: Summary): Paired {
  return pairedOver(a.p50Rounds.map((p50, round) => p50 - b.p50Rounds[round]!));
}

/** One target line: a measured value against its bound. */
export interface Target {
  name: string;
  value: number;
  /** `>=` bound for ratios, `<=` for added latency, `=` for exact counts. */
  op: '>=' | '<=' | '=';
  bound: number;
  unit: string;
  pass: boolean;
  /** For a figure compared within each round: its lowest and highest round. */
  rounds?: { low: number; high: number };
  /** For a CPU-per-request target: the rps ratio of the same two scenarios, shown beside it. */
  rps?: Paired | null;
}

export function target(
  name: string,
  measured: number | Paired,
  op: Target['op'],
  bound: number,
  unit = '',
): Target {
  const value = typeof measured === 'number' ? measured : measured.value;
  const pass = op === '>=' ? value >= bound : op === '<=' ? value <= bound : value === bound;
  const rounds = typeof measured === 'number' ? undefined : { low: measured.low, high: measured.high };
  return { name, value, op, bound, unit, pass, ...(rounds ? { rounds } : {}) };
}

/** Machine and code facts written with every result. */
export interface RunFacts {
  date: string;
  node: string;
  cpu: string;
  cores: number;
  commit: string;
  settings: string;
  /** The share of CPU time stolen by the hypervisor during the run (see cpu.ts `stealSince`). */
  steal: string;
}

function git(args: string[]): string {
  try {
    return execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return '';
  }
}

export function collectFacts(settings: string, steal: string): RunFacts {
  const commit = git(['rev-parse', '--short', 'HEAD']) || 'unknown';
  const dirty = git(['status', '--porcelain']) !== '';
  return {
    date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    node: process.version,
    cpu: cpus()[0]?.model.trim() ?? 'unknown',
    cores: cpus().length,
    commit: dirty ? `${commit} (with uncommitted changes)` : commit,
    settings,
    steal,
  };
}

const fixed = (value: number, digits: number) => value.toFixed(digits);

export function formatRow(label: string, connections: number, summary: Summary, cpu: Paired | null): string {
  const spread = summary.rounds.map((rps) => Math.round(rps)).join(' / ');
  const errors = summary.errors > 0 ? ` **${summary.errors} errors**` : '';
  const cpuCell = cpu === null ? '–' : fixed(cpu.value, 1);
  return `| ${label} | ${connections} | ${cpuCell} | ${Math.round(summary.rps)} | ${fixed(summary.p50Ms, 3)} | ${fixed(summary.p99Ms, 3)} | ${spread}${errors} |`;
}

export const TABLE_HEAD = [
  '| scenario | conns | CPU µs per request (median) | rps (median) | p50 ms | p99 ms | rps per round |',
  '|---|---:|---:|---:|---:|---:|---|',
];

/** A figure compared within each round, with its unit and its lowest and highest round. */
export function formatPaired(paired: Paired, digits = 3, unit = ''): string {
  return (
    `${fixed(paired.value, digits)}${unit ? ` ${unit}` : ''}` +
    ` (rounds ${fixed(paired.low, digits)} to ${fixed(paired.high, digits)})`
  );
}

export function formatTarget(t: Target): string {
  const digits = t.unit === 'ms' ? 3 : t.op === '=' ? 0 : 3;
  const value = t.rounds
    ? formatPaired({ value: t.value, ...t.rounds }, digits, t.unit)
    : `${fixed(t.value, digits)}${t.unit ? ` ${t.unit}` : ''}`;
  const bound = `${t.op} ${fixed(t.bound, t.op === '=' ? 0 : 2)}${t.unit ? ` ${t.unit}` : ''}`;
  const rps = t.rps ? formatPaired(t.rps) : '–';
  return `| ${t.name} | ${value} | ${bound} | ${t.pass ? 'PASS' : 'MISS'} | ${rps} |`;
}

export const TARGET_HEAD = [
  '| target | measured: median (lowest to highest round) | bound | result | rps ratio beside it |',
  '|---|---:|---:|---|---:|',
];

export function formatFacts(facts: RunFacts): string[] {
  return [
    `- date: ${facts.date}`,
    `- node: ${facts.node}`,
    `- cpu: ${facts.cpu}, ${facts.cores} cores`,
    `- commit: ${facts.commit}`,
    `- settings: ${facts.settings}`,
    `- CPU steal during the run (time the hypervisor gave these cores to other guests): ${facts.steal}`,
  ];
}

const TITLE = '# keygate benchmark results';
const INTRO = [
  TITLE,
  '',
  'Written by `pnpm bench` (bench/run.ts): the newest run under "Latest", the one before it under',
  '"Previous". Figures are medians over interleaved rounds on one shared machine; compare ratios, not',
  'absolute numbers across machines. Target ratios are taken within each round, then the median;',
  'ratio targets are judged on CPU per request (all threads of each proxy process, and redis-server',
  'for Redis mode), with the rps ratio beside them.',
  '',
];

/** Writes the new run as "Latest" and moves the old "Latest" (if any) to "Previous". */
export function writeResults(file: string, latestBody: string[], facts: RunFacts): void {
  const previous = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const start = previous.indexOf('\n## Latest');
  let previousSection = '';
  if (start !== -1) {
    const end = previous.indexOf('\n## Previous', start + 1);
    previousSection = previous
      .slice(start + 1, end === -1 ? undefined : end)
      .replace(/^## Latest/, '## Previous')
      .trimEnd();
  }
  const lines = [...INTRO, `## Latest: ${facts.date}`, '', ...latestBody];
  if (previousSection) lines.push('', previousSection);
  writeFileSync(file, `${lines.join('\n')}\n`);
}
