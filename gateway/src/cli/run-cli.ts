import { resolve } from 'node:path';
import { GatewayError } from '../errors.ts';
import { ADMIN_HELP, runAdminCommand } from './admin-commands.ts';
import { type CliIo, type CliServices, UsageError } from './cli-io.ts';
import { KEYS_HELP, runKeysCommand } from './keys-commands.ts';

export const HELP = `Usage: keygate <keys|admin> <command> [options]

The keygate operator CLI. It works on the gateway's store: \${KEYGATE_DATA_DIR:-./data}/gateway.db.
A running gateway sees every change on its next request.

${KEYS_HELP}
${ADMIN_HELP}
Errors are printed as one line on stderr; the exit code is then 2.
`;

/** The SQLite database the gateway and the CLI share. */
export function databaseFileOf(env: Record<string, string | undefined>): string {
  return resolve(env.KEYGATE_DATA_DIR || './data', 'gateway.db');
}

/** Opens the store and services; loaded lazily so --help and usage mistakes answer at once. */
async function openServices(env: Record<string, string | undefined>): Promise<CliServices> {
  if (env.REDIS_URL) {
    throw new UsageError(
      'REDIS_URL is set, but this CLI only knows the SQLite store yet; unset REDIS_URL to use it',
    );
  }
  const [{ openSqliteKeyStore }, { createArgon2Hasher }, { createKeyService }, { createLocalKeyEvents }] =
    await Promise.all([
      import('../store/sqlite.ts'),
      import('../keys/hasher.ts'),
      import('../keys/key-service.ts'),
      import('../keys/events.ts'),
    ]);
  const store = openSqliteKeyStore(databaseFileOf(env));
  const hasher = createArgon2Hasher();
  const clock = () => Date.now();
  return {
    store,
    hasher,
    clock,
    keyService: createKeyService({ store, hasher, events: createLocalKeyEvents(), clock }),
  };
}

function describeError(error: unknown): string {
  if (error instanceof UsageError) return error.message;
  if (error instanceof GatewayError) return `${error.message} (${error.code})`;
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
    if (group === 'admin') return await runAdminCommand(io, open, rest);
    throw new UsageError(`unknown command "${group}" (see keygate --help)`);
  } catch (error) {
    io.stderr.write(`keygate: ${describeError(error).replaceAll('\n', ' ')}\n`);
    return 2;
  } finally {
    await (services as CliServices | null)?.store.close();
  }
}
