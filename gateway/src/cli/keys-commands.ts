import { type ParseArgsOptionsConfig, parseArgs } from 'node:util';
import type { PublicKey } from '../keys/public-key.ts';
import type { Actor } from '../model/model.ts';
import { creditsInputOf } from './budget-flags.ts';
import { type CliIo, type OpenServices, printJson, UsageError } from './cli-io.ts';
import { formatKeyTable } from './format.ts';

/** Changes made from the CLI are attributed to the administrator `cli:<OS user name>`, without a source IP. */
export function cliActor(io: Pick<CliIo, 'osUser'>): Actor {
  return { type: 'admin', id: `cli:${io.osUser}` };
}
const ORIGIN = { sourceIp: null };

export const KEYS_HELP = `Usage: keygate keys <command> [options]

Commands:
  create --name NAME --env live|test --scopes a:r,b:rw [--expires YYYY-MM-DD]
         [--ip ADDRESS|CIDR]... [--rate-limit N] [--identity ID] [--plan ID]
         [--credits N [--credits-low-at N]] [--json]
                               create a key (may grant auth:rw); prints the secret once
  list [--env live|test] [--status active|revoked] [--json]
  show ID [--json]
  revoke ID [--json]           revoke a key and close all its secrets
  rotate ID [--overlap-days N] [--json]
                               new secret; the old one keeps working N days (0-7, default 1)
  close-secret ID [--secret SECRET_ID] [--json]
                               close the old secret of a rotation now
`;

export type Values = Record<string, string | boolean | string[] | undefined>;

/** Parses a command's flags (`--json` always allowed); a mistake is a UsageError. */
export function parse(args: string[], options: ParseArgsOptionsConfig = {}) {
  try {
    const parsed = parseArgs({
      args,
      options: { json: { type: 'boolean' }, ...options },
      allowPositionals: true,
    });
    return { values: parsed.values as Values, positionals: parsed.positionals };
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** The value of a required string flag. */
export function required(values: Values, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

function oneId(positionals: string[], command: string): string {
  if (positionals.length !== 1) throw new UsageError(`usage: keygate keys ${command} ID`);
  return positionals[0]!;
}

/** A whole-number flag, or undefined when absent. */
export function integer(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`--${flag} must be a whole number`);
  return Number(value);
}

function printKey(io: CliIo, key: PublicKey, json: boolean, headline: string): void {
  if (json) printJson(io, key);
  else io.stdout.write(`${headline}\n${formatKeyTable([key])}`);
}

/** `keygate keys …`: create, list, show, revoke, rotate, close-secret. Returns the exit code. */
export async function runKeysCommand(io: CliIo, open: OpenServices, argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === 'help' || rest.includes('--help')) {
    io.stdout.write(KEYS_HELP);
    return 0;
  }
  switch (command) {
    case 'create':
      return createCommand(io, open, rest);
    case 'list': {
      const { values } = parse(rest, { env: { type: 'string' }, status: { type: 'string' } });
      const filter = {
        environment: values.env as 'live' | 'test' | undefined,
        status: values.status as 'active' | 'revoked' | undefined,
      };
      if (filter.environment && !['live', 'test'].includes(filter.environment))
        throw new UsageError('--env is live or test');
      if (filter.status && !['active', 'revoked'].includes(filter.status))
        throw new UsageError('--status is active or revoked');
      const keys = await (await open()).keyService.listKeys(cliActor(io), filter);
      if (values.json) printJson(io, keys);
      else io.stdout.write(keys.length === 0 ? 'No keys.\n' : formatKeyTable(keys));
      return 0;
    }
    case 'show': {
      const { values, positionals } = parse(rest);
      const id = oneId(positionals, 'show');
      const key = await (await open()).keyService.getKey(cliActor(io), id);
      printKey(io, key, values.json === true, `Key ${key.id}`);
      return 0;
    }
    case 'revoke': {
      const { values, positionals } = parse(rest);
      const id = oneId(positionals, 'revoke');
      const key = await (await open()).keyService.revokeKey(cliActor(io), id, ORIGIN);
      printKey(io, key, values.json === true, `Revoked ${key.id}; every secret is closed.`);
      return 0;
    }
    case 'rotate':
      return rotateCommand(io, open, rest);
    case 'close-secret': {
      const { values, positionals } = parse(rest, { secret: { type: 'string' } });
      const secretId = values.secret as string | undefined;
      const id = oneId(positionals, 'close-secret');
      const key = await (await open()).keyService.closeSecret(cliActor(io), id, secretId, ORIGIN);
      printKey(io, key, values.json === true, `Closed the old secret of ${key.id}.`);
      return 0;
    }
    default:
      throw new UsageError(`unknown command "keys ${command}" (see keygate keys --help)`);
  }
}

async function createCommand(io: CliIo, open: OpenServices, args: string[]): Promise<number> {
  const { values, positionals } = parse(args, {
    name: { type: 'string' },
    env: { type: 'string' },
    scopes: { type: 'string' },
    expires: { type: 'string' },
    ip: { type: 'string', multiple: true },
    'rate-limit': { type: 'string' },
    identity: { type: 'string' },
    plan: { type: 'string' },
    credits: { type: 'string' },
    'credits-low-at': { type: 'string' },
  });
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const perMinute = integer(values['rate-limit'] as string | undefined, 'rate-limit');
  const credits = creditsInputOf(
    values.credits as string | undefined,
    values['credits-low-at'] as string | undefined,
  );
  const input = {
    name: required(values, 'name'),
    environment: required(values, 'env') as 'live' | 'test',
    scopes: required(values, 'scopes')
      .split(',')
      .map((scope) => scope.trim())
      .filter((scope) => scope !== ''),
    expiresAt: (values.expires as string | undefined) ?? null,
    ipAllowlist: (values.ip as string[] | undefined) ?? [],
    ...(perMinute === undefined ? {} : { rateLimit: { perMinute } }),
    ...(values.identity ? { identityId: values.identity as string } : {}),
    ...(values.plan ? { planId: values.plan as string } : {}),
    ...(credits === undefined ? {} : { credits }),
  };
  const { keyService } = await open();
  const { key, secret } = await keyService.createKey(cliActor(io), input, ORIGIN);
  if (values.json) printJson(io, { id: key.id, prefix: key.prefix, secret });
  else io.stdout.write(`Created ${key.id}\n${formatKeyTable([key])}\nsecret: ${secret}\n${SHOWN_ONCE}`);
  return 0;
}

const SHOWN_ONCE = 'Store the secret now: it is not shown again.\n';

async function rotateCommand(io: CliIo, open: OpenServices, args: string[]): Promise<number> {
  const { values, positionals } = parse(args, { 'overlap-days': { type: 'string' } });
  const overlapDays = integer(values['overlap-days'] as string | undefined, 'overlap-days');
  const id = oneId(positionals, 'rotate');
  const { keyService } = await open();
  const { key, secret } = await keyService.rotateKey(
    cliActor(io),
    id,
    overlapDays === undefined ? {} : { overlapDays },
    ORIGIN,
  );
  const old = key.rotation.secrets[1];
  if (values.json) {
    printJson(io, {
      id: key.id,
      prefix: key.prefix,
      secret,
      oldSecret: old ? { id: old.id, closesAt: old.closesAt } : null,
    });
  } else {
    const until = old ? `The old secret ${old.prefix} works until ${old.closesAt}.\n` : '';
    io.stdout.write(`Rotated ${key.id}\nsecret: ${secret}\n${until}${SHOWN_ONCE}`);
  }
  return 0;
}
