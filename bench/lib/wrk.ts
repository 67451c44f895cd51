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
  /**
   * A file of bearer tokens, one a line: each request sends the next (from a random start, so runs
   * do not repeat each other's first tokens), instead of `headers.Authorization`. Such runs are
   * refusals: any answer but a 4xx counts as an error.
   */
  tokensFile?: string;
  /**
   * Lua defining wrk's `init` and `request` (e.g. a mix of requests), run with REPORT_SCRIPT's
   * `done`: any answer but a 2xx or 3xx counts as an error, as in a plain run.
   */
  script?: string;
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

/**
 * A request script (see `LoadOptions.script`) sending the tokens of a file in turn, from a random
 * start (so runs do not repeat each other's first tokens): many keys called, each answer judged as
 * in a plain run (only a 2xx or 3xx is a success).
 */
export const cyclingTokensScript = (file: string) => `
local tokens = {}
for line in io.lines(${JSON.stringify(file)}) do tokens[#tokens + 1] = line end
math.randomseed(os.time())
local at = math.random(#tokens)
request = function()
  at = at % #tokens + 1
  return wrk.format(nil, nil, { Authorization = 'Bearer ' .. tokens[at] })
end
`;

/**
 * Sends the tokens of a file in turn (cyclingTokensScript), and reports as REPORT_SCRIPT does except
 * that the answers counted as errors are those that were NOT refused (wrk counts every status above 399).
 */
const tokensScript = (file: string) => `${cyclingTokensScript(file)}
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('\\n${MARKER}{"requests":%d,"durationUs":%d,"p50Us":%.1f,"p99Us":%.1f,"errors":%d}\\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.connect + e.read + e.write + e.timeout + (summary.requests - e.status)))
end
`;

/** Writes the reporting Lua script into `dir` and returns a function running wrk with it. */
export function createLoadRunner(dir: string): (options: LoadOptions) => Promise<Measurement> {
  const reportScript = join(dir, 'report.lua');
  writeFileSync(reportScript, REPORT_SCRIPT);
  const scripts = new Map<string, string>();
  const scriptFor = (tokensFile: string) => {
    let script = scripts.get(tokensFile);
    if (script === undefined) {
      script = join(dir, `tokens-${scripts.size}.lua`);
      writeFileSync(script, tokensScript(tokensFile));
      scripts.set(tokensFile, script);
    }
    return script;
  };
  const requestScripts = new Map<string, string>();
  const requestScriptFor = (source: string) => {
    let script = requestScripts.get(source);
    if (script === undefined) {
      script = join(dir, `requests-${requestScripts.size}.lua`);
      writeFileSync(script, source + REPORT_SCRIPT);
      requestScripts.set(source, script);
    }
    return script;
  };
  return async (options) => {
    const script =
      options.tokensFile !== undefined
        ? scriptFor(options.tokensFile)
        : options.script !== undefined
          ? requestScriptFor(options.script)
          : reportScript;
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
