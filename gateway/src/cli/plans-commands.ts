import type { Identity, Plan } from '../model/budget.ts';
import { creditsInputOf, creditsLowAtPatchOf, creditsOf, limitsOf, quotasOf } from './budget-flags.ts';
import { type CliIo, type OpenServices, printJson, UsageError } from './cli-io.ts';
import { cliActor, parse, required, type Values } from './keys-commands.ts';

export const PLANS_HELP = `Usage: keygate plans <command> [options]

Commands:
  create --name NAME [--limit NAME:second|minute|hour:N]... [--quota day|week|month:N]...
         [--refill daily:AMOUNT|monthly:AMOUNT[:DAY]] [--json]
  list [--json]
  show ID [--json]
  update ID [--name NAME] [--limit …]... [--quota …]... [--refill …|none] [--json]
                               given lists replace the plan's; keys on it follow at once
  delete ID                    refused while a key or an identity names the plan
`;

export const IDENTITIES_HELP = `Usage: keygate identities <command> [options]

Commands:
  create --external-id ID --env live|test [--plan ID] [--credits N [--credits-low-at N]] [--json]
  list [--env live|test] [--json]
  show ID [--json]             with its keys
  update ID [--plan ID|none] [--credits-low-at N|none] [--json]
                               --credits-low-at: below this balance a credits.low alert is sent
  delete ID                    refused while a key belongs to it
`;

/**
 * The plan and identity services on the CLI's store: its changes reach running gateways through
 * the store (SQLite's key generation, Redis' channel). Loaded lazily, like the store, so --help
 * and usage mistakes answer at once.
 */
async function servicesOf(open: OpenServices) {
  const [{ store, clock }, { createLocalKeyEvents }, { createPlanService }, { createIdentityService }] =
    await Promise.all([
      open(),
      import('../model/events.ts'),
      import('../plans/plan-service.ts'),
      import('../plans/identity-service.ts'),
    ]);
  const deps = { store, events: createLocalKeyEvents(), clock };
  return { plans: createPlanService(deps), identities: createIdentityService(deps) };
}

function oneId(positionals: string[], usage: string): string {
  if (positionals.length !== 1) throw new UsageError(`usage: keygate ${usage} ID`);
  return positionals[0]!;
}

const PLAN_FLAGS = {
  name: { type: 'string' },
  limit: { type: 'string', multiple: true },
  quota: { type: 'string', multiple: true },
  refill: { type: 'string' },
} as const;

function planInput(values: Values): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  if (values.name !== undefined) input.name = values.name;
  const limits = limitsOf(values.limit as string[] | undefined);
  const quotas = quotasOf(values.quota as string[] | undefined);
  const credits = creditsOf(values.refill as string | undefined);
  if (limits) input.limits = limits;
  if (quotas) input.quotas = quotas;
  if (credits !== undefined) input.credits = credits;
  return input;
}

function describePlan(plan: Plan): string {
  const limits = plan.limits.map((limit) => `${limit.name} ${limit.limit}/${limit.window}`).join(', ');
  const quotas = plan.quotas.map((quota) => `${quota.limit}/${quota.period}`).join(', ');
  const refill = plan.credits ? `${plan.credits.refill.amount} ${plan.credits.refill.interval}` : 'none';
  return `${plan.id}  ${plan.name}  limits: ${limits || 'none'}  quotas: ${quotas || 'none'}  refill: ${refill}\n`;
}

function describeIdentity(identity: Identity): string {
  return `${identity.id}  ${identity.environment}  ${identity.externalId}  plan: ${identity.planId ?? 'none'}\n`;
}

/** `keygate plans …`: create, list, show, update, delete. Returns the exit code. */
export async function runPlansCommand(io: CliIo, open: OpenServices, argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === 'help' || rest.includes('--help')) {
    io.stdout.write(PLANS_HELP);
    return 0;
  }
  const print = (value: Plan | Plan[], json: unknown) => {
    if (json) printJson(io, value);
    else
      io.stdout.write(
        Array.isArray(value) ? value.map(describePlan).join('') || 'No plans.\n' : describePlan(value),
      );
  };
  switch (command) {
    case 'create': {
      const { values } = parse(rest, PLAN_FLAGS);
      required(values, 'name');
      print(await (await servicesOf(open)).plans.createPlan(planInput(values)), values.json);
      return 0;
    }
    case 'list': {
      const { values } = parse(rest);
      print(await (await servicesOf(open)).plans.listPlans(), values.json);
      return 0;
    }
    case 'show': {
      const { values, positionals } = parse(rest);
      print(await (await servicesOf(open)).plans.getPlan(oneId(positionals, 'plans show')), values.json);
      return 0;
    }
    case 'update': {
      const { values, positionals } = parse(rest, PLAN_FLAGS);
      const id = oneId(positionals, 'plans update');
      print(await (await servicesOf(open)).plans.updatePlan(id, planInput(values)), values.json);
      return 0;
    }
    case 'delete': {
      const { positionals } = parse(rest);
      const id = oneId(positionals, 'plans delete');
      await (await servicesOf(open)).plans.deletePlan(id);
      io.stdout.write(`Deleted ${id}.\n`);
      return 0;
    }
    default:
      throw new UsageError(`unknown command "plans ${command}" (see keygate plans --help)`);
  }
}

/** `keygate identities …`: create, list, show, update, delete. Returns the exit code. */
export async function runIdentitiesCommand(io: CliIo, open: OpenServices, argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === 'help' || rest.includes('--help')) {
    io.stdout.write(IDENTITIES_HELP);
    return 0;
  }
  const actor = cliActor(io);
  const print = (value: Identity | Identity[], json: unknown) => {
    if (json) printJson(io, value);
    else
      io.stdout.write(
        Array.isArray(value)
          ? value.map(describeIdentity).join('') || 'No identities.\n'
          : describeIdentity(value),
      );
  };
  switch (command) {
    case 'create': {
      const { values } = parse(rest, {
        'external-id': { type: 'string' },
        env: { type: 'string' },
        plan: { type: 'string' },
        credits: { type: 'string' },
        'credits-low-at': { type: 'string' },
      });
      const credits = creditsInputOf(
        values.credits as string | undefined,
        values['credits-low-at'] as string | undefined,
      );
      const input = {
        externalId: required(values, 'external-id'),
        environment: required(values, 'env'),
        ...(values.plan ? { planId: values.plan } : {}),
        ...(credits === undefined ? {} : { credits }),
      };
      print(await (await servicesOf(open)).identities.createIdentity(actor, input), values.json);
      return 0;
    }
    case 'list': {
      const { values } = parse(rest, { env: { type: 'string' } });
      const items: Identity[] = [];
      const { identities } = await servicesOf(open);
      let cursor: string | undefined;
      do {
        const query = { ...(values.env ? { environment: values.env } : {}), ...(cursor ? { cursor } : {}) };
        const page = await identities.listIdentities(actor, query);
        items.push(...page.items);
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      print(items, values.json);
      return 0;
    }
    case 'show': {
      const { values, positionals } = parse(rest);
      const identity = await (await servicesOf(open)).identities.getIdentity(
        actor,
        oneId(positionals, 'identities show'),
      );
      if (values.json) printJson(io, identity);
      else
        io.stdout.write(
          `${describeIdentity(identity)}keys: ${identity.keys.map((key) => key.id).join(', ') || 'none'}\n`,
        );
      return 0;
    }
    case 'update': {
      const { values, positionals } = parse(rest, {
        plan: { type: 'string' },
        'credits-low-at': { type: 'string' },
      });
      const id = oneId(positionals, 'identities update');
      const plan = values.plan as string | undefined;
      const credits = creditsLowAtPatchOf(values['credits-low-at'] as string | undefined);
      if (plan === undefined && credits === undefined)
        throw new UsageError('nothing to change: give --plan ID|none or --credits-low-at N|none');
      const input = {
        ...(plan === undefined ? {} : { planId: plan === 'none' ? null : plan }),
        ...(credits === undefined ? {} : { credits }),
      };
      print(await (await servicesOf(open)).identities.updateIdentity(actor, id, input), values.json);
      return 0;
    }
    case 'delete': {
      const { positionals } = parse(rest);
      const id = oneId(positionals, 'identities delete');
      await (await servicesOf(open)).identities.deleteIdentity(actor, id);
      io.stdout.write(`Deleted ${id}.\n`);
      return 0;
    }
    default:
      throw new UsageError(`unknown command "identities ${command}" (see keygate identities --help)`);
  }
}
