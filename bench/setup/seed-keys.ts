// Creates the bench's API keys in a gateway store (SQLite file or Redis), then prints one JSON line:
//   node bench/setup/seed-keys.ts (--db FILE | --redis URL --prefix P | --cluster HOST:PORT,… --prefix P)
//     [--fillers N [--fillers-tokens FILE]] [--tag-key BASE64URL] [--all] [--scope SCOPE]…
//     --key ENV [--key ENV] [--plan-key ENV]
// --tag-key: the load keys get the keyed tag of that tag key, as keys created through the API or the
// CLI do (without it they are untagged, as keys stored before tags were). --all: print every load
// key's token, by index, instead of the last one per environment. --scope: a scope the load keys
// hold besides article:r and pricing:r (the commerce bench's mixed run changes cart lines: order:rw).
// --plan-key: also a load key on a plan with a minute limit, a day and a month quota and credits
// (none of them ever refuses), printed as `plan-<env>`: the plans bench rows (#47).
// --fillers-tokens (SQLite, with --tag-key): the fillers get the keyed tag too, so a gateway verifies
// them by their tag as any key made through the API, and their tokens are written to FILE, one a line,
// for a wrk script to cycle through (the 100k-keys-with-analytics row).
// Filler keys (otherwise never called) get a cheap SHA-256 hash instead of argon2 and, on SQLite, are written
// with the store's own commit function inside one outer transaction (each commit becomes a
// savepoint): 100,000 separate commits would take a minute. The keys under load are argon2id-hashed
// like any real key and committed through the store API, with a rate limit far above the key API's
// 100,000/min cap so it never triggers while wrk drives thousands of calls per second.
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { newKeyChange } from '../../gateway/src/keys/create-key.ts';
import { createArgon2Hasher } from '../../gateway/src/keys/hasher.ts';
import { createSecretTagger, parseTagKey, type SecretTagger } from '../../gateway/src/keys/secret-tag.ts';
import { generateToken, newId } from '../../gateway/src/keys/token.ts';
import type { Environment } from '../../gateway/src/model/model.ts';
import { openRedisKeyStore } from '../../gateway/src/store/redis/redis-store.ts';
import { activityToRow, keyToRow } from '../../gateway/src/store/sqlite/rows.ts';
import * as schema from '../../gateway/src/store/sqlite/schema.ts';
import { openSqliteKeyStore } from '../../gateway/src/store/sqlite/sqlite-store.ts';
import type { KeyStore } from '../../gateway/src/store/store.ts';

/** Far above anything wrk can send in a minute on one machine. */
const LOAD_KEY_RATE_LIMIT = 1_000_000_000;
// pricing:r: the commerce bench reads a customer's pricing (#24).
const SCOPES = ['article:r', 'pricing:r'];
const FILLERS_PER_TRANSACTION = 10_000;
/** Rows per INSERT statement, well below SQLite's bound on bound parameters. */
const ROWS_PER_INSERT = 200;

type Database = { transaction(fn: () => void): () => void; close(): void };
const requireFromBench = createRequire(import.meta.url);
const BetterSqlite3 = requireFromBench('better-sqlite3') as new (file: string) => Database;

/** A key record as the key service builds it, with its one secret and its `key.created` activity. */
function buildKeyChange(
  environment: Environment,
  perMinute: number,
  hash: (token: string) => string,
  token = generateToken(environment),
  tag: string | null = null,
  scopes: readonly string[] = SCOPES,
) {
  const change = newKeyChange({
    name: `bench-${environment}`,
    grant: { environment, scopes: [...scopes], expiresAt: null, ipAllowlist: [], rateLimit: { perMinute } },
    token,
    hash: hash(token.token),
    tag,
    at: new Date().toISOString(),
    actor: { type: 'system', id: 'keygate' },
    sourceIp: null,
  });
  return { change, token: token.token };
}

const sha256 = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Writes `count` filler keys into the SQLite file: the same rows the store's commit writes (its own
 * row mapping and tables), inserted many rows per statement in a few transactions.
 */
function createSqliteFillers(file: string, count: number, tagged: SecretTagger | null): string[] {
  const client = new BetterSqlite3(file);
  const db = drizzle({ client: client as never, schema });
  const tokens: string[] = [];
  try {
    for (let done = 0; done < count; done += FILLERS_PER_TRANSACTION) {
      const batch = Math.min(FILLERS_PER_TRANSACTION, count - done);
      const changes = Array.from({ length: batch }, (_, i) => {
        const environment = i % 2 ? 'live' : 'test';
        const token = generateToken(environment);
        const built = buildKeyChange(environment, 600, sha256, token, tagged?.tagOf(token.token) ?? null);
        if (tagged) tokens.push(built.token);
        return built.change;
      });
      client.transaction(() => {
        for (let at = 0; at < changes.length; at += ROWS_PER_INSERT) {
          const slice = changes.slice(at, at + ROWS_PER_INSERT);
          db.insert(schema.keys)
            .values(slice.map((change) => keyToRow(change.key)))
            .run();
          db.insert(schema.secrets)
            .values(slice.map((change) => change.secrets[0]!))
            .run();
          db.insert(schema.activity)
            .values(slice.map((change) => activityToRow(change.activity)))
            .run();
        }
      })();
    }
  } finally {
    client.close();
  }
  return tokens;
}

/** Writes `count` filler keys through the store API (Redis: one atomic script per key, pipelined). */
async function createStoreFillers(store: KeyStore, count: number): Promise<void> {
  for (let done = 0; done < count; done += 256) {
    const batch = Math.min(256, count - done);
    await Promise.all(
      Array.from({ length: batch }, (_, i) =>
        store.commitChange(buildKeyChange(i % 2 ? 'live' : 'test', 600, sha256).change),
      ),
    );
  }
}

/** Far above anything wrk can spend in a bench: the plan's limits, quotas and credits never refuse. */
const PLAN_AMOUNT = 1_000_000_000_000;

/**
 * A plan with every kind of line the row names: a minute limit, a day and a month quota and
 * a credits refill, none of which a bench can exhaust. Its key also holds a balance of its own.
 */
async function createBenchPlan(store: KeyStore): Promise<string> {
  const at = new Date().toISOString();
  const plan = {
    id: newId('plan'),
    name: 'bench',
    limits: [{ name: 'minute', window: 'minute' as const, limit: PLAN_AMOUNT }],
    quotas: [
      { period: 'day' as const, limit: PLAN_AMOUNT },
      { period: 'month' as const, limit: PLAN_AMOUNT },
    ],
    credits: { refill: { interval: 'monthly' as const, amount: PLAN_AMOUNT } },
    createdAt: at,
    updatedAt: at,
    version: 1,
  };
  if (!(await store.createPlan(plan))) throw new Error('the bench plan could not be stored');
  return plan.id;
}

/** One argon2id key whose rate limit never triggers (on `planId`, with credits, when given); returns its token. */
async function createLoadKey(
  store: KeyStore,
  environment: Environment,
  tagger: SecretTagger | null,
  scopes: readonly string[],
  planId?: string,
): Promise<string> {
  const token = generateToken(environment);
  const hash = await createArgon2Hasher().hash(token.token);
  const tag = tagger?.tagOf(token.token) ?? null;
  const built = buildKeyChange(environment, LOAD_KEY_RATE_LIMIT, () => hash, token, tag, scopes);
  if (planId) {
    Object.assign(built.change.key, { planId, credits: { refill: null } });
    built.change.creditsBalance = { remaining: PLAN_AMOUNT, refilledAt: Date.now() };
  }
  if (!(await store.commitChange(built.change))) throw new Error('the load key could not be stored');
  return built.token;
}

const { values } = parseArgs({
  options: {
    db: { type: 'string' },
    redis: { type: 'string' },
    cluster: { type: 'string' },
    prefix: { type: 'string', default: 'keygate:' },
    fillers: { type: 'string', default: '0' },
    key: { type: 'string', multiple: true, default: [] },
    'tag-key': { type: 'string' },
    all: { type: 'boolean', default: false },
    scope: { type: 'string', multiple: true, default: [] },
    'plan-key': { type: 'string', multiple: true, default: [] },
    'fillers-tokens': { type: 'string' },
  },
});
const tagKey = values['tag-key'] === undefined ? null : parseTagKey(values['tag-key']);
if (values['tag-key'] !== undefined && !tagKey) throw new Error('--tag-key: base64url of 32 bytes or more');
const tagger = tagKey ? createSecretTagger(tagKey) : null;
const started = performance.now();
const fillers = Number(values.fillers);
let store: KeyStore;
let close: () => Promise<void>;
if (values.db) {
  const sqlite = openSqliteKeyStore(values.db);
  store = sqlite;
  close = () => sqlite.close();
  const fillersFile = values['fillers-tokens'];
  if (fillersFile !== undefined && !tagger) throw new Error('--fillers-tokens needs --tag-key');
  const fillerTokens = createSqliteFillers(values.db, fillers, fillersFile === undefined ? null : tagger);
  if (fillersFile !== undefined) writeFileSync(fillersFile, `${fillerTokens.join('\n')}\n`);
} else if (values.redis || values.cluster) {
  const target = values.cluster
    ? {
        clusterNodes: values.cluster.split(',').map((node) => {
          const [host, port] = node.split(':');
          return { host: host!, port: Number(port) };
        }),
      }
    : values.redis!;
  const redis = await openRedisKeyStore(target, { keyPrefix: values.prefix });
  store = redis;
  close = () => redis.close();
  await createStoreFillers(store, fillers);
} else {
  throw new Error('pass --db FILE, --redis URL or --cluster HOST:PORT,…');
}
try {
  const tokens: Record<string, string> = {};
  for (const [index, environment] of values.key.entries()) {
    if (environment !== 'live' && environment !== 'test')
      throw new Error(`--key ${environment}: live or test`);
    tokens[values.all ? String(index) : environment] = await createLoadKey(store, environment, tagger, [
      ...SCOPES,
      ...values.scope,
    ]);
  }
  if (values['plan-key'].length > 0) {
    const planId = await createBenchPlan(store);
    for (const environment of values['plan-key']) {
      if (environment !== 'live' && environment !== 'test')
        throw new Error(`--plan-key ${environment}: live or test`);
      tokens[`plan-${environment}`] = await createLoadKey(store, environment, tagger, SCOPES, planId);
    }
  }
  const ms = Math.round(performance.now() - started);
  process.stdout.write(`${JSON.stringify({ tokens, fillers, ms })}\n`);
} finally {
  await close();
}
