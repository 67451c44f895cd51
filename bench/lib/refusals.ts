// What saying no costs the gateway (#36): token files for the refusal scenarios (unique unknown
// tokens, unique wrong secrets on a real lookup, all with valid checksums), the first calls of 200
// distinct keys at once on a fresh instance, and another key's p95 during a burst of wrong secrets.
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checksumOf } from '../../gateway/src/keys/token.ts';
import { type BenchGateway, seedKeys, startGateway } from './stack.ts';

/** Tokens per file: far more than the negative cache holds, so every token of a run is new to it. */
const TOKENS_PER_FILE = 300_000;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function base62(length: number): string {
  return [...randomBytes(length)].map((byte) => BASE62[byte % 62]).join('');
}

/** A well-formed token (valid checksum) for `prefix` (`kg_<env>_<lookup>`) with a random secret. */
export function tokenFor(prefix: string): string {
  const body = `${prefix}_${base62(22)}`;
  return body + checksumOf(body);
}

/** Token files for the refusal scenarios, and one token of each for the pre-load check. */
export interface RefusalTokens {
  unknownFile: string;
  wrongFile: string;
  unknownSample: string;
  wrongSample: string;
}

/** Writes the two token files: unknown lookups, and wrong secrets on `realToken`'s lookup. */
export function writeRefusalTokens(dir: string, realToken: string): RefusalTokens {
  const realPrefix = realToken.split('_').slice(0, 3).join('_');
  const unknown = Array.from({ length: TOKENS_PER_FILE }, () => tokenFor(`kg_live_${base62(8)}`));
  const wrong = Array.from({ length: TOKENS_PER_FILE }, () => tokenFor(realPrefix));
  const unknownFile = join(dir, 'unknown-tokens.txt');
  const wrongFile = join(dir, 'wrong-secret-tokens.txt');
  writeFileSync(unknownFile, `${unknown.join('\n')}\n`);
  writeFileSync(wrongFile, `${wrong.join('\n')}\n`);
  return { unknownFile, wrongFile, unknownSample: unknown[0]!, wrongSample: wrong[0]! };
}

/** The statuses of 200 distinct keys' first calls, sent at once to a gateway that never saw them. */
export interface FirstCalls {
  backend: 'SQLite' | 'Redis';
  statuses: Record<number, number>;
  ok: number;
}

/**
 * Seeds 200 keys tagged with the instance's tag key (as keys made through the API or the CLI are),
 * starts a fresh gateway on them, and sends every key's first call at once.
 */
export async function firstCallsAtOnce(options: {
  backend: 'SQLite' | 'Redis';
  dataDir: string;
  redisUrl: string;
  upstreamUrl: string;
  route: string;
  logLevel: string;
}): Promise<FirstCalls> {
  const tagKey = randomBytes(32).toString('base64url');
  const prefix = `first-${base62(6)}:`;
  const store =
    options.backend === 'SQLite'
      ? ['--db', join(options.dataDir, 'gateway.db')]
      : ['--redis', options.redisUrl, '--prefix', prefix];
  const keys = Array.from({ length: 200 }, () => ['--key', 'live']).flat();
  const tokens = await seedKeys([...store, `--tag-key=${tagKey}`, '--all', ...keys]);
  const env: Record<string, string> = {
    KEYGATE_DATA_DIR: options.dataDir,
    KEYGATE_UPSTREAM_LIVE: options.upstreamUrl,
    KEYGATE_UPSTREAM_TEST: options.upstreamUrl,
    KEYGATE_SECRET_TAG_KEY: tagKey,
    ...(options.backend === 'Redis' ? { REDIS_URL: options.redisUrl, KEYGATE_REDIS_PREFIX: prefix } : {}),
  };
  const gateway = await startGateway(`gateway (first calls, ${options.backend})`, env, options.logLevel);
  try {
    const all = Object.values(tokens);
    const statuses = await Promise.all(
      all.map(async (token) => {
        const res = await fetch(gateway.url + options.route, {
          headers: { Authorization: `Bearer ${token}` },
        });
        await res.arrayBuffer();
        return res.status;
      }),
    );
    const tally: Record<number, number> = {};
    for (const status of statuses) tally[status] = (tally[status] ?? 0) + 1;
    return { backend: options.backend, statuses: tally, ok: tally[200] ?? 0 };
  } finally {
    process.kill(gateway.pid, 'SIGTERM');
  }
}

/** p95 of `count` calls with `token`, `concurrency` at a time, in ms. */
async function p95Of(url: string, token: string, count: number, concurrency: number): Promise<number> {
  const latencies: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < count) {
        const start = performance.now();
        const res = await fetch(url, { headers: { Authorization: `Bearer ${token}` } });
        await res.arrayBuffer();
        latencies.push(performance.now() - start);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return latencies[Math.floor(latencies.length * 0.95)] ?? Number.NaN;
}

/**
 * Another key's p95 without and during a burst of 200 unique wrong secrets on a real lookup, in
 * `rounds` pairs: the ratio of each pair, and the median ratio.
 */
export async function p95DuringBurst(options: {
  gateway: BenchGateway;
  route: string;
  otherToken: string;
  victimToken: string;
  rounds: number;
}): Promise<{ quiet: number[]; burst: number[]; ratios: number[] }> {
  const url = options.gateway.url + options.route;
  const victimPrefix = options.victimToken.split('_').slice(0, 3).join('_');
  const quiet: number[] = [];
  const burst: number[] = [];
  for (let round = 0; round < options.rounds; round++) {
    quiet.push(await p95Of(url, options.otherToken, 200, 8));
    const attack = Promise.all(
      Array.from({ length: 200 }, async () => {
        const res = await fetch(url, { headers: { Authorization: `Bearer ${tokenFor(victimPrefix)}` } });
        await res.arrayBuffer();
        return res.status;
      }),
    );
    burst.push(await p95Of(url, options.otherToken, 200, 8));
    const statuses = await attack;
    const other = statuses.filter((status) => status !== 401);
    if (other.length) throw new Error(`wrong secrets answered ${other.join(', ')} instead of 401`);
  }
  return { quiet, burst, ratios: quiet.map((value, round) => burst[round]! / value) };
}
