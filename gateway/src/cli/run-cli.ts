import { resolve } from 'node:path';
import { GatewayError } from '../errors.ts';
import { RedisEnvSchema, type RedisTarget, redisTargetOf } from '../store/redis/target.ts';
import { ADMIN_HELP, runAdminCommand } from './admin-commands.ts';
import { type CliIo, type CliServices, UsageError } from './cli-io.ts';
import { KEYS_HELP, runKeysCommand } from './keys-commands.ts';
import { IDENTITIES_HELP, PLANS_HELP, runIdentitiesCommand, runPlansCommand } from './plans-commands.ts';
import { runSandboxCommand, SANDBOX_HELP } from './sandbox-commands.ts';

export const HELP = `Usage: keygate <keys|plans|identities|admin|sandbox> <command> [options]

The keygate operator CLI. It works on the gateway's store: the shared Redis at $REDIS_URL, or the
Cluster at $KEYGATE_REDIS_CLUSTER_NODES, or the master $KEYGATE_REDIS_SENTINEL_NAME found through
$KEYGATE_REDIS_SENTINELS (keys under \${KEYGATE_REDIS_PREFIX:-keygate:}) when one is set, else \${KEYGATE_DATA_DIR:-./data}/gateway.db.
Running gateways see every change on their next request. While the store is unreachable, changes
are refused (STORE_UNAVAILABLE) and nothing is written.

${KEYS_HELP}
${PLANS_HELP}
${IDENTITIES_HELP}
${ADMIN_HELP}
${SANDBOX_HELP}
Errors are printed as one line on stderr; the exit code is then 2.
`;

/** The SQLite database the gateway and the CLI share. */
export function databaseFileOf(env: Record<string, string | undefined>): string {
  return resolve(env.KEYGATE_DATA_DIR || './data', 'gateway.db');
}

/** How long the CLI waits for Redis before giving up with STORE_UNAVAILABLE. */
const REDIS_CONNECT_TIMEOUT_MS = 2000;

/**
 * REDIS_URL (or the Cluster or Sentinel variables) and KEYGATE_REDIS_PREFIX as the gateway reads
 * them; a bad value is a usage error.
 */
function redisSettingsOf(env: Record<string, string | undefined>): {
  url: RedisTarget | null;
  prefix: string;
} {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value?.trim()));
  const parsed = RedisEnvSchema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UsageError(`${issue?.path.join('.')}: ${issue?.message}`);
  }
  const url = redisTargetOf(parsed.data);
  const prefix = env.KEYGATE_REDIS_PREFIX?.trim() || 'keygate:';
  if (!/^[\w:.-]{1,64}$/.test(prefix))
    throw new UsageError('KEYGATE_REDIS_PREFIX has characters it may not have');
  return { url, prefix };
}

/** Opens the store and services; loaded lazily so --help and usage mistakes answer at once. */
async function openServices(env: Record<string, string | undefined>): Promise<CliServices> {
  const redis = redisSettingsOf(env);
  const [
    { openStore },
    { createArgon2Hasher },
    { createKeyService },
    { createLocalKeyEvents },
    errors,
    tags,
    { createAlertOutbox },
    { withKeyAlerts },
  ] = await Promise.all([
    import('../store/open-backend.ts'),
    import('../keys/hasher.ts'),
    import('../keys/key-service.ts'),
    import('../model/events.ts'),
    import('../store/unavailable-errors.ts'),
    import('../keys/secret-tag.ts'),
    import('../alerts/alert-outbox.ts'),
    import('../alerts/key-alerts.ts'),
  ]);
  const tagKeyText = env.KEYGATE_SECRET_TAG_KEY?.trim();
  if (redis.url && !tagKeyText && !env.KEYGATE_SECRET_TAG_KEY_FILE?.trim())
    throw new UsageError(tags.SHARED_TAG_KEY_REQUIRED);
  const configuredTagKey = tagKeyText ? tags.parseTagKey(tagKeyText) : null;
  if (tagKeyText && !configuredTagKey)
    throw new UsageError('KEYGATE_SECRET_TAG_KEY must be base64url of at least 32 random bytes');
  let opened: Awaited<ReturnType<typeof openStore>>;
  try {
    opened = await openStore({
      redisUrl: redis.url,
      redisPrefix: redis.prefix,
      databaseFile: databaseFileOf(env),
      connectTimeoutMs: REDIS_CONNECT_TIMEOUT_MS,
    });
  } catch (error) {
    if (!redis.url) throw error;
    throw errors.storeUnavailableError(error);
  }
  const clock = () => Date.now();
  // Key changes made here are alerts too: recorded in the shared outbox, sent by a running gateway.
  const store = opened.alerts
    ? withKeyAlerts(opened.store, createAlertOutbox({ store: opened.alerts, clock, notify: () => {} }), {
        error: (_context: unknown, message?: string) => process.stderr.write(`warning: ${message}\n`),
      })
    : opened.store;
  // The gateways' tag key, so keys created here are tagged as theirs are (keys/secret-tag.ts).
  const tagKey = await tags.loadTagKey({
    key: configuredTagKey,
    keyFile:
      env.KEYGATE_SECRET_TAG_KEY_FILE?.trim() || resolve(env.KEYGATE_DATA_DIR || './data', 'secret-tag-key'),
  });
  const hasher = createArgon2Hasher({}, tags.createSecretTagger(tagKey));
  // Commits on Redis announce themselves to every gateway (the commit script publishes), so the
  // CLI needs no event connection of its own.
  return {
    store,
    hasher,
    clock,
    keyService: createKeyService({ store, hasher, events: createLocalKeyEvents(), clock }),
    close: () => opened.close(),
  };
}

function describeError(error: unknown): string {
  if (error instanceof UsageError) return error.message;
  if (error instanceof GatewayError) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return `${error.message} (${error.code})${error.code === 'STORE_UNAVAILABLE' ? cause : ''}`;
  }
  if (error instanceof Error) return error.message;
  return String(error);
}

/** Runs one CLI invocation and returns its exit code: 0 on success, 2 on any error. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  let services: CliServices | null = null;
  const open = async () => {
    services ??= await openServices(io.env);
    return services;
  };
  const [group, ...rest] = argv;
  try {
    if (group === undefined) {
      io.stderr.write(HELP);
      return 2;
    }
    if (group === '--help' || group === '-h' || group === 'help') {
      io.stdout.write(HELP);
      return 0;
    }
    if (group === 'keys') return await runKeysCommand(io, open, rest);
    if (group === 'plans') return await runPlansCommand(io, open, rest);
    if (group === 'identities') return await runIdentitiesCommand(io, open, rest);
    if (group === 'admin') return await runAdminCommand(io, open, rest);
    if (group === 'sandbox') return await runSandboxCommand(io, open, rest);
    throw new UsageError(`unknown command "${group}" (see keygate --help)`);
  } catch (error) {
    io.stderr.write(`keygate: ${describeError(error).replaceAll('\n', ' ')}\n`);
    return 2;
  } finally {
    await (services as CliServices | null)?.close();
  }
}
