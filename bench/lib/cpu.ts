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
 * Main-thread CPU a server spent per request during `run` (µs): Node serves every request on its
 * main thread, so this is what caps a proxy's throughput, and it is far steadier than rps on a
 * machine shared with other work. Null when the process is gone or the run served nothing.
 */
export async function mainThreadMicrosPerRequest<T extends { requests: number }>(
  pid: number,
  run: () => Promise<T>,
): Promise<{ result: T; micros: number | null }> {
  const before = cpuMicros(pid, true);
  const result = await run();
  const after = cpuMicros(pid, true);
  return { result, micros: result.requests > 0 ? (after - before) / result.requests : null };
}
