// Memory per gateway instance (resident set size, from /proc): idle after start, after each
// measured run and after all of them, beside the targets of docs/operations.md#memory; and, with
// BENCH_SOAK=1, a soak at steady load showing whether RSS keeps growing after its first minute.
import { readFileSync } from 'node:fs';
import { type Target, target } from './report.ts';
import type { Stack } from './stack.ts';
import type { LoadOptions, Measurement } from './wrk.ts';

/** RSS bounds in MiB, and the soak's growth bound (share of the RSS after its first minute). */
export const MEMORY_TARGETS = { idle: 120, afterLoad: 200, afterLoad100k: 260, soakGrowth: 0.05 } as const;

/** Idle readings per process, a second apart: RSS settles for a moment after a process starts. */
const IDLE_SAMPLES = 3;
/** Length of each wrk run of the soak: RSS is read between runs. */
const SOAK_SLICE_SECONDS = 10;
const SOAK_SETTLE_SECONDS = 60;

/** The resident set size of a process, in MiB (VmRSS). */
export function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN) / 1024;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const mib = (value: number) => value.toFixed(1);
const spread = (values: readonly number[]) =>
  values.length > 1 ? ` (readings ${values.map(mib).join(' / ')})` : '';

/** A process whose memory the bench reports: every gateway, and the raw pipe as the floor. */
interface Watched {
  name: string;
  pid: number;
}

/** What the bench reads about memory over a run; `section` turns it into report lines and targets. */
export interface MemoryWatch {
  /** Reads each process's idle RSS; call once every process has started and before any load. */
  readIdle(): Promise<void>;
  /** Reads the RSS of the process behind `url` after a measured run of scenario `id`. */
  afterRun(id: string, pid: number | undefined): void;
  /** The report's memory lines and targets (after-load figures only for the scenarios that ran). */
  section(ran: ReadonlySet<string>): { lines: string[]; targets: Target[] };
}

export function watchMemory(stack: Stack, pipePid: number | undefined): MemoryWatch {
  const watched: Watched[] = [
    ...(pipePid === undefined ? [] : [{ name: 'raw node:http pipe proxy', pid: pipePid }]),
    ...Object.values(stack.gateways).map((gateway) => ({ name: gateway.name, pid: gateway.pid })),
  ];
  const idle = new Map<number, number[]>();
  const afterRuns = new Map<string, number[]>();
  const readNow = (pid: number) => {
    try {
      return rssMiB(pid);
    } catch {
      return Number.NaN;
    }
  };
  return {
    async readIdle() {
      for (let sample = 0; sample < IDLE_SAMPLES; sample++) {
        if (sample > 0) await sleep(1000);
        for (const { pid } of watched) idle.set(pid, [...(idle.get(pid) ?? []), readNow(pid)]);
      }
    },
    afterRun(id, pid) {
      if (pid !== undefined && watched.some((w) => w.pid === pid)) {
        afterRuns.set(id, [...(afterRuns.get(id) ?? []), readNow(pid)]);
      }
    },
    section(ran) {
      const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
      const lines = watched.map(({ name, pid }) => {
        const idleReadings = idle.get(pid) ?? [];
        return `- ${name}: idle ${mib(median(idleReadings))} MiB${spread(idleReadings)}, after the runs ${mib(readNow(pid))} MiB`;
      });
      for (const [id, readings] of afterRuns) {
        lines.push(`- after each measured run of ${id}: ${readings.map(mib).join(' / ')} MiB`);
      }
      const { memory, memory100k, memory100kBuckets } = stack.gateways;
      /** The highest RSS read after any of a scenario's runs or after them all: the load's cost. */
      const peakAfter = (id: string, pid: number) => Math.max(readNow(pid), ...(afterRuns.get(id) ?? []));
      const targets = [
        target(
          'idle RSS, memory mode (100 keys)',
          median(idle.get(memory.pid) ?? [Number.NaN]),
          '<=',
          MEMORY_TARGETS.idle,
          'MiB',
        ),
      ];
      // The last row is the 100k bound with a day of analytics in the store and every key called:
      // the meter's state and the SQLite file's growth must fit where 100k keys alone fit.
      const afterLoad: Array<[id: string, label: string, pid: number, bound: number]> = [
        ['memory', 'memory mode (100 keys)', memory.pid, MEMORY_TARGETS.afterLoad],
        ['memory100k', 'memory mode (100k keys)', memory100k.pid, MEMORY_TARGETS.afterLoad100k],
        [
          'memory100k-buckets',
          'memory mode (100k keys, a day of minute buckets, every key called)',
          memory100kBuckets.pid,
          MEMORY_TARGETS.afterLoad100k,
        ],
      ];
      for (const [id, label, pid, bound] of afterLoad) {
        if (ran.has(id))
          targets.push(target(`RSS after the load, ${label}`, peakAfter(id, pid), '<=', bound, 'MiB'));
      }
      return { lines, targets };
    },
  };
}

/**
 * BENCH_SOAK=1: steady load on the memory-mode gateway (100 keys) for `seconds`, in wrk runs of
 * SOAK_SLICE_SECONDS, reading its RSS between runs. The target is the growth of the highest reading
 * after the first minute over the reading at one minute: a leak keeps growing, a warm heap does not.
 */
export async function soak(
  stack: Stack,
  load: (options: LoadOptions) => Promise<Measurement>,
  seconds: number,
  log: (line: string) => void,
): Promise<{ lines: string[]; targets: Target[] }> {
  const { memory } = stack.gateways;
  const options: LoadOptions = {
    url: `${memory.url}/v2/catalog/products`,
    headers: { Authorization: `Bearer ${stack.tokens.memory}` },
    connections: 32,
    seconds: SOAK_SLICE_SECONDS,
  };
  log(`soak: ${seconds} s of steady load on ${memory.name}, RSS read every ${SOAK_SLICE_SECONDS} s`);
  const readings: Array<{ at: number; rss: number; rps: number }> = [];
  for (let at = SOAK_SLICE_SECONDS; at <= seconds; at += SOAK_SLICE_SECONDS) {
    const result = await load(options);
    readings.push({ at, rss: rssMiB(memory.pid), rps: result.rps });
  }
  const settled = readings.filter((reading) => reading.at >= SOAK_SETTLE_SECONDS);
  const lines = [
    `Soak (BENCH_SOAK=1): ${memory.name}, ${seconds} s of wrk -c32, RSS in MiB at each ${SOAK_SLICE_SECONDS} s (rps):`,
    `- ${readings.map((r) => `${r.at} s ${mib(r.rss)} (${Math.round(r.rps)})`).join(', ')}`,
  ];
  if (settled.length < 2)
    return { lines: [...lines, '- too short to judge growth after the first minute'], targets: [] };
  const base = settled[0]!.rss;
  const growth = (Math.max(...settled.map((r) => r.rss)) - base) / base;
  return {
    lines,
    targets: [
      target(
        `RSS growth after the first minute of a ${seconds} s soak`,
        growth * 100,
        '<=',
        MEMORY_TARGETS.soakGrowth * 100,
        '%',
      ),
    ],
  };
}
