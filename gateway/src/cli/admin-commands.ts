import { parseArgs } from 'node:util';
import { createAdminUser } from '../keys/admin-users.ts';
import { type CliIo, type OpenServices, printJson, UsageError } from './cli-io.ts';

export const ADMIN_HELP = `Usage: keygate admin <command> [options]

Commands:
  create-user --email EMAIL (--password-stdin | --password PASSWORD) [--json]
                               create an administrator of the admin interface
                               (password: at least 12 characters, stored as an argon2id hash;
                               prefer --password-stdin, which keeps it out of the process list)
`;

/** Where a local gateway serves the admin interface (GATEWAY_PORT as the gateway reads it). */
export function adminUrlOf(env: Record<string, string | undefined>): string {
  const port = /^\d{1,5}$/.test(env.GATEWAY_PORT ?? '') ? env.GATEWAY_PORT : '8080';
  return `http://localhost:${port}/admin`;
}

/** Reads the password from stdin, dropping one trailing newline. */
async function readPassword(io: CliIo): Promise<string> {
  return (await io.readStdin()).replace(/\r?\n$/, '');
}

/** `keygate admin …`: create-user. Returns the exit code. */
export async function runAdminCommand(io: CliIo, open: OpenServices, argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === 'help' || rest.includes('--help')) {
    io.stdout.write(ADMIN_HELP);
    return 0;
  }
  if (command !== 'create-user')
    throw new UsageError(`unknown command "admin ${command}" (see keygate admin --help)`);
  let values: { email?: string; password?: string; 'password-stdin'?: boolean; json?: boolean };
  try {
    values = parseArgs({
      args: rest,
      options: {
        email: { type: 'string' },
        password: { type: 'string' },
        'password-stdin': { type: 'boolean' },
        json: { type: 'boolean' },
      },
    }).values;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (!values.email) throw new UsageError('--email is required');
  if ((values.password === undefined) === (values['password-stdin'] !== true)) {
    throw new UsageError('give exactly one of --password-stdin or --password');
  }
  const password = values.password ?? (await readPassword(io));
  const services = await open();
  const user = await createAdminUser(services, { email: values.email, password });
  if (values.json) printJson(io, user);
  else {
    io.stdout.write(`Created administrator ${user.id} <${user.email}>\n`);
    io.stdout.write(`Log in with this email and password at ${adminUrlOf(io.env)}\n`);
  }
  return 0;
}
