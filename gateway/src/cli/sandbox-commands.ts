import { parseArgs } from 'node:util';
import { type CliIo, type OpenServices, printJson, UsageError } from './cli-io.ts';

export const SANDBOX_HELP = `Usage: keygate sandbox <command> [options]

Commands:
  reset [--yes] [--json]       put the test environment's data back to the seed, in every upstream
                               whose route table entry names a sandboxReset path (commerce:
                               products, prices, stock, customers; carts, orders, events and
                               deliveries dropped; webhook endpoints kept). Keys, usage and API logs
                               are kept; live data is never touched. Asks for confirmation unless
                               --yes; recorded in the activity log as cli:<your OS user>.
`;

/** `keygate sandbox …`: reset. Returns the exit code. */
export async function runSandboxCommand(io: CliIo, open: OpenServices, argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === 'help' || rest.includes('--help')) {
    io.stdout.write(SANDBOX_HELP);
    return 0;
  }
  if (command !== 'reset')
    throw new UsageError(`unknown command "sandbox ${command}" (see keygate sandbox --help)`);
  let values: { yes?: boolean; json?: boolean };
  try {
    values = parseArgs({
      args: rest,
      options: { yes: { type: 'boolean' }, json: { type: 'boolean' } },
      strict: true,
    }).values;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (!values.yes) {
    if (!io.readLine) throw new UsageError('no terminal to confirm on: pass --yes to reset without asking');
    const answer = await io.readLine(
      "Reset the test environment's data to the seed (carts, orders, events and deliveries are dropped)? Type 'reset' to confirm: ",
    );
    if (answer.trim() !== 'reset') {
      io.stderr.write('keygate: not confirmed; nothing was reset\n');
      return 1;
    }
  }
  // Loaded here: the config (route table, identity key) and the signer are needed by this command only.
  const [{ loadConfig }, { loadIdentityKey }, { createGatewayIdentitySigner }, { resetSandbox }] =
    await Promise.all([
      import('../config.ts'),
      import('../identity/identity-key.ts'),
      import('../identity/identity-signer.ts'),
      import('../sandbox/reset-sandbox.ts'),
    ]);
  const config = loadConfig(io.env);
  const privateJwk = await loadIdentityKey({
    privateJwk: config.identityPrivateJwk,
    keyFile: config.identityKeyFile,
  });
  const signer = createGatewayIdentitySigner({ privateJwk });
  try {
    const services = await open();
    const results = await resetSandbox(
      {
        table: config.routes,
        sign: (identity, audience) => signer.sign(identity, audience),
        store: services.store,
        clock: services.clock,
      },
      { actor: { type: 'admin', id: `cli:${io.osUser}` }, sourceIp: null },
    );
    if (values.json) printJson(io, { reset: results });
    else {
      for (const { upstream } of results) io.stdout.write(`reset the test data of ${upstream}\n`);
    }
    return 0;
  } finally {
    await signer.close();
  }
}
