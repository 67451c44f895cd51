import {
  ANALYTICS_GRANULARITIES,
  type AnalyticsGranularity,
  BUCKET_MS,
  type CallOutcome,
} from '@keygate/contracts/gateway';
import {
  type BucketRetention,
  bucketStartOf,
  type CallBucket,
  type CallBucketStore,
  type CallUsageRow,
} from '../../budget/call-buckets.ts';
import type { RedisClient } from './connection.ts';
import type { RedisKeyLayout, RedisKeyNames } from './keys.ts';
import type { ScriptRunner } from './scripts.ts';

const FLUSH_MARKER_SECONDS = 7 * 86_400;

/** Each granularity's hashes: its letter in the name, and how long a span one hash holds (ms). */
const SPANS: Record<AnalyticsGranularity, { letter: string; spanMs: number }> = {
  minute: { letter: 'm', spanMs: 3_600_000 },
  hour: { letter: 'h', spanMs: 86_400_000 },
  day: { letter: 'd', spanMs: 10 * 86_400_000 },
};

/** The buckets of one hash: fields `<offset>|<env>|<outcome>` (calls) and `…|c` (cost). */
function bucketsOf(hash: Record<string, string>, spanStart: number, bucketMs: number): CallBucket[] {
  const found = new Map<string, CallBucket>();
  for (const [field, value] of Object.entries(hash)) {
    const [offset, environment, outcome, isCost] = field.split('|') as [string, string, CallOutcome, string?];
    const id = `${offset}|${environment}|${outcome}`;
    let bucket = found.get(id);
    if (!bucket) {
      bucket = { start: spanStart + Number(offset) * bucketMs, environment, outcome, calls: 0, cost: 0 };
      found.set(id, bucket);
    }
    if (isCost) bucket.cost = Number(value);
    else bucket.calls = Number(value);
  }
  return [...found.values()];
}

/**
 * Analytics buckets in Redis: per subject and granularity a hash per span, in the subject's slot
 * group, so one script per group and flush adds a flush's minutes, hours and days with HINCRBY
 * (every instance adds to the same fields: exact sums). Hashes expire with their granularity's
 * retention, which is how Redis prunes them.
 */
export function createRedisCallBuckets(
  client: RedisClient,
  layout: RedisKeyLayout,
  run: ScriptRunner,
  retention: BucketRetention,
): CallBucketStore {
  return {
    async addCallUsage(rows: CallUsageRow[], flushId: string) {
      const byGroup = new Map<RedisKeyNames, { keys: string[]; args: (string | number)[] }>();
      for (const row of rows) {
        const names = layout.forKey(row.subject);
        let group = byGroup.get(names);
        if (!group) {
          group = { keys: [names.callBucketsFlush(flushId)], args: [FLUSH_MARKER_SECONDS] };
          byGroup.set(names, group);
        }
        for (const granularity of ANALYTICS_GRANULARITIES) {
          const { letter, spanMs } = SPANS[granularity];
          const spanStart = row.minute - (row.minute % spanMs);
          const offset = (bucketStartOf(row.minute, granularity) - spanStart) / BUCKET_MS[granularity];
          const expireAt = Math.ceil((spanStart + spanMs + retention[granularity]) / 1000);
          group.keys.push(names.callBuckets(letter, row.subject, spanStart));
          group.args.push(`${offset}|${row.environment}|${row.outcome}`, row.calls, row.cost, expireAt);
        }
      }
      await Promise.all([...byGroup.values()].map(({ keys, args }) => run(keys.length, ...keys, ...args)));
    },
    async readCallBuckets(subject, granularity, from, toMs) {
      // A hash outlives its oldest buckets by up to a span: those past retention are not answered.
      const fromMs = Math.max(from, Date.now() - retention[granularity]);
      const names = layout.forKey(subject);
      const { letter, spanMs } = SPANS[granularity];
      const spans: number[] = [];
      for (let span = fromMs - (fromMs % spanMs); span < toMs; span += spanMs) spans.push(span);
      const hashes = await Promise.all(
        spans.map((span) => client.hgetall(names.callBuckets(letter, subject, span))),
      );
      return hashes
        .flatMap((hash, i) => bucketsOf(hash, spans[i]!, BUCKET_MS[granularity]))
        .filter((bucket) => bucket.start >= fromMs && bucket.start < toMs);
    },
    // Hashes expire on their own (EXPIREAT at each write).
    pruneCallBuckets: async () => 0,
  };
}
