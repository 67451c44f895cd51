import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** CPU time (µs, user + system) of a process's main thread, or of the whole process. */
export function cpuMicros(pid: number, mainThreadOnly: boolean): number {
  const path = mainThreadOnly ? `/proc/${pid}/task/${pid}/stat` : `/proc/${pid}/stat`;
  // Fields after the command name (which may hold spaces) start after the last ')'.
  const fields = readFileSync(path, 'utf8').split(')').pop()?.trim().split(' ') ?? [];
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1e6) / TICKS_PER_SECOND;
}

/**
 * CPU time (µs, user + system, every thread) the processes `pids` spent per request during `run`:
 * what a proxy costs the machine per request, its worker threads (identity signing) and, for Redis
 * mode, the redis-server it needs included. Far steadier than rps on a machine shared with other
 * work. Null when a process is gone or the run served nothing.
 */
export async function cpuMicrosPerRequest<T extends { requests: number }>(
  pids: readonly number[],
  run: () => Promise<T>,
): Promise<{ result: T; micros: number | null }> {
  const total = () => pids.reduce((sum, pid) => sum + cpuMicros(pid, false), 0);
  const before = total();
  const result = await run();
  let after: number;
  try {
    after = total();
  } catch {
    return { result, micros: null };
  }
  return { result, micros: result.requests > 0 ? (after - before) / result.requests : null };
}

/** The machine's CPU times (clock ticks) from the first line of /proc/stat: every state, and steal. */
export function machineCpuTimes(): { total: number; steal: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal (guest time is already inside user and nice).
  return { total: fields.slice(0, 8).reduce((sum, n) => sum + n, 0), steal: fields[7] ?? 0 };
}

type CpuTimes = ReturnType<typeof machineCpuTimes>;

/** The machine's CPU ticks since `start`: in all, and stolen by the hypervisor. */
function ticksSince(start: CpuTimes): CpuTimes {
  const now = machineCpuTimes();
  return { total: now.total - start.total, steal: now.steal - start.steal };
}

/** The share (0–1) of the machine's CPU time that was steal since `start`; 0 when no time passed. */
export function stealShareSince(start: CpuTimes): number {
  const { total, steal } = ticksSince(start);
  return total > 0 ? steal / total : 0;
}

/**
 * The share of the machine's CPU time the hypervisor gave to other guests since `start` (steal):
 * on a shared virtual machine, the figures of a run with much steal are slower and noisier.
 */
export function stealSince(start: CpuTimes): string {
  const { total, steal } = ticksSince(start);
  if (total <= 0) return 'unknown';
  const seconds = (ticks: number) => Math.round(ticks / TICKS_PER_SECOND);
  return `${((steal / total) * 100).toFixed(1)} % (${seconds(steal)} of ${seconds(total)} CPU-seconds)`;
}
