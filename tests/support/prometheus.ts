import assert from 'node:assert/strict';
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { freePort, ROOT, tempDir, waitForOk } from './processes.ts';

const run = promisify(execFile);

export const MONITORING_DIR = resolve(ROOT, 'deploy/monitoring');
export const RULES_FILE = resolve(MONITORING_DIR, 'keygate-rules.yaml');
export const RULES_TEST_FILE = resolve(MONITORING_DIR, 'keygate-rules.test.yaml');
export const DASHBOARD_FILE = resolve(MONITORING_DIR, 'keygate-dashboard.json');

/** A binary of Debian's `prometheus` package; missing, the test fails (never skips), in CI and out. */
function missing(binary: string): never {
  const where = process.env.CI === 'true' ? 'CI must install it' : 'install it to run this test';
  return assert.fail(`${binary} is not on the PATH (Debian: apt-get install prometheus); ${where}`);
}

/** Runs `promtool args…`; resolves with its exit code and output (a failing check is not thrown). */
export async function promtool(...args: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run('promtool', args, { cwd: ROOT, maxBuffer: 4 * 1024 * 1024 });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as NodeJS.ErrnoException & { code?: unknown; stdout?: string; stderr?: string };
    if (failed.code === 'ENOENT') missing('promtool');
    return { code: Number(failed.code), output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

/** One scrape job of the test's Prometheus: its name and the `host:port` of each target. */
export interface ScrapeJob {
  name: string;
  targets: string[];
}

/** What `/api/v1/query` answers for an instant vector. */
export interface Sample {
  metric: Record<string, string>;
  value: [number, string];
}

/** What `/api/v1/query_range` answers: a series and its points. */
export interface Series {
  metric: Record<string, string>;
  values: Array<[number, string]>;
}

/** A real Prometheus server on 127.0.0.1 with a storage directory of its own. */
export interface TestPrometheus {
  url: string;
  /** An instant query; throws with Prometheus's own message when it answers an error. */
  query(expr: string): Promise<Sample[]>;
  /** A range query over the last `seconds`, one point a second, as a dashboard panel asks. */
  queryRange(expr: string, seconds: number): Promise<Series[]>;
  /** GET of an API path (e.g. `/api/v1/rules`), its `data` member; throws on an error answer. */
  api<T>(path: string): Promise<T>;
  stop(): Promise<void>;
}

/**
 * Starts `prometheus` scraping `jobs` every second and evaluating `ruleFiles` every second, on a
 * free port of 127.0.0.1 with its TSDB in a temp directory removed by `stop()`.
 */
export async function startPrometheus(jobs: ScrapeJob[], ruleFiles: string[] = []): Promise<TestPrometheus> {
  const dir = tempDir('keygate-prometheus-');
  const port = await freePort();
  // JSON is YAML: the configuration needs no YAML writer.
  const config = {
    global: { scrape_interval: '1s', scrape_timeout: '1s', evaluation_interval: '1s' },
    rule_files: ruleFiles,
    scrape_configs: jobs.map((job) => ({ job_name: job.name, static_configs: [{ targets: job.targets }] })),
  };
  writeFileSync(join(dir.path, 'prometheus.yml'), JSON.stringify(config, null, 2));
  const child: ChildProcess = spawn(
    'prometheus',
    [
      `--config.file=${join(dir.path, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(dir.path, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const spawned = new Promise<void>((resolveSpawn, reject) => {
    child.once('spawn', resolveSpawn);
    child.once('error', reject);
  });
  // A binary that never started emits 'error' and no 'exit'.
  const exited = new Promise<void>((resolveExit) => {
    child.once('exit', () => resolveExit());
    child.once('error', () => resolveExit());
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    dir.remove();
  };
  try {
    await spawned.catch((error: NodeJS.ErrnoException) =>
      error.code === 'ENOENT' ? missing('prometheus') : Promise.reject(error),
    );
    const url = `http://127.0.0.1:${port}`;
    await waitForOk(`${url}/-/ready`, 30_000, () => {
      if (child.exitCode !== null) throw new Error(`prometheus exited early (${child.exitCode}):\n${output}`);
    });
    const api = async <T>(path: string): Promise<T> => {
      const res = await fetch(`${url}${path}`);
      const body = (await res.json()) as { status: string; data: T; error?: string; errorType?: string };
      if (body.status !== 'success') throw new Error(`${path}: ${body.errorType}: ${body.error}`);
      return body.data;
    };
    const query = async (expr: string) => {
      const data = await api<{ resultType: string; result: Sample[] }>(
        `/api/v1/query?query=${encodeURIComponent(expr)}`,
      );
      assert.equal(data.resultType, 'vector', `${expr} is not an instant vector`);
      return data.result;
    };
    const queryRange = async (expr: string, seconds: number) => {
      const end = Date.now() / 1000;
      const params = new URLSearchParams({
        query: expr,
        start: String(end - seconds),
        end: String(end),
        step: '1',
      });
      const data = await api<{ resultType: string; result: Series[] }>(`/api/v1/query_range?${params}`);
      assert.equal(data.resultType, 'matrix', `${expr} is not a range vector`);
      return data.result;
    };
    return { url, query, queryRange, api, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
