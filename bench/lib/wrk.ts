import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runToEnd } from './processes.ts';

/** One wrk run's figures. */
export interface Measurement {
  rps: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  /** Socket errors, timeouts and non-2xx/3xx answers: any of them makes the run suspect. */
  errors: number;
}

export interface LoadOptions {
  url: string;
  headers: Record<string, string>;
  connections: number;
  seconds: number;
}

const MARKER = 'BENCH_RESULT ';

/** wrk's `done` hook printing the exact figures (latencies in µs) as one JSON line. */
const REPORT_SCRIPT = `
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('\\n${MARKER}{"requests":%d,"durationUs":%d,"p50Us":%.1f,"p99Us":%.1f,"errors":%d}\\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.connect + e.read + e.write + e.status + e.timeout))
end
`;

/** Writes the reporting Lua script into `dir` and returns a function running wrk with it. */
export function createLoadRunner(dir: string): (options: LoadOptions) => Promise<Measurement> {
  const script = join(dir, 'report.lua');
  writeFileSync(script, REPORT_SCRIPT);
  return async (options) => {
    const headerArgs = Object.entries(options.headers).flatMap(([name, value]) => [
      '-H',
      `${name}: ${value}`,
    ]);
    const args = [
      '-t1',
      `-c${options.connections}`,
      `-d${options.seconds}s`,
      '--timeout',
      '5s',
      '-s',
      script,
      ...headerArgs,
      options.url,
    ];
    const output = await runToEnd('wrk', 'wrk', args);
    const line = output.split('\n').find((text) => text.startsWith(MARKER));
    if (!line) throw new Error(`wrk printed no result:\n${output}`);
    const raw = JSON.parse(line.slice(MARKER.length)) as {
      requests: number;
      durationUs: number;
      p50Us: number;
      p99Us: number;
      errors: number;
    };
    return {
      rps: raw.requests / (raw.durationUs / 1e6),
      p50Ms: raw.p50Us / 1000,
      p99Ms: raw.p99Us / 1000,
      requests: raw.requests,
      // A run that completed nothing (the target stalled for the whole run) counts as an error too.
      errors: raw.errors + (raw.requests === 0 ? 1 : 0),
    };
  };
}
