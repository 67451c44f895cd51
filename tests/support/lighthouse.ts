import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CHROMIUM_PATH } from './browser.ts';
import { ROOT, tempDir } from './processes.ts';

const LIGHTHOUSE_BIN = join(ROOT, 'tests/node_modules/lighthouse/cli/index.js');

/** Lighthouse's category scores (0..1) and, per category, the audits that lost it points. */
export interface LighthouseResult {
  scores: Record<'performance' | 'accessibility' | 'best-practices' | 'seo', number>;
  /** `category: audit (score) title` for every weighted audit below 1. */
  failures: string[];
  /** The timings behind the performance score, and how fast Lighthouse found the machine's CPU. */
  metrics: {
    totalBlockingTimeMs: number;
    largestContentfulPaintMs: number;
    /** Lighthouse's CPU benchmark of this run: lower means a busier or slower machine. */
    benchmarkIndex: number;
  };
}

/**
 * Runs Lighthouse 12 (its mobile preset, the default) on `url` with Debian's Chromium, in a
 * child process as a user would run the CLI, and returns the scores.
 */
export async function runLighthouse(url: string): Promise<LighthouseResult> {
  const dir = tempDir('keygate-lighthouse-');
  try {
    const report = join(dir.path, 'report.json');
    await promisify(execFile)(
      process.execPath,
      [
        LIGHTHOUSE_BIN,
        url,
        '--quiet',
        '--only-categories=performance,accessibility,best-practices,seo',
        '--chrome-flags=--headless=new --no-sandbox --disable-gpu --no-first-run',
        '--output=json',
        `--output-path=${report}`,
      ],
      { env: { ...process.env, CHROME_PATH: CHROMIUM_PATH }, timeout: 120_000 },
    );
    const lhr = JSON.parse(readFileSync(report, 'utf8')) as {
      categories: Record<string, { score: number; auditRefs: Array<{ id: string; weight: number }> }>;
      audits: Record<string, { score: number | null; title: string; numericValue?: number }>;
      environment?: { benchmarkIndex?: number };
      runtimeError?: { message: string };
    };
    if (lhr.runtimeError) throw new Error(`lighthouse: ${lhr.runtimeError.message}`);
    const failures: string[] = [];
    for (const [category, { auditRefs }] of Object.entries(lhr.categories)) {
      for (const ref of auditRefs) {
        const audit = lhr.audits[ref.id];
        if (ref.weight > 0 && audit && audit.score !== null && audit.score < 1)
          failures.push(`${category}: ${ref.id} (${audit.score}) ${audit.title}`);
      }
    }
    const score = (id: string) => lhr.categories[id]?.score ?? Number.NaN;
    const value = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
    return {
      scores: {
        performance: score('performance'),
        accessibility: score('accessibility'),
        'best-practices': score('best-practices'),
        seo: score('seo'),
      },
      failures,
      metrics: {
        totalBlockingTimeMs: value('total-blocking-time'),
        largestContentfulPaintMs: value('largest-contentful-paint'),
        benchmarkIndex: lhr.environment?.benchmarkIndex ?? Number.NaN,
      },
    };
  } finally {
    dir.remove();
  }
}
