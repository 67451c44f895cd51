import { batchesOf } from './call-batch.ts';
import type { RedisClient } from './connection.ts';
import type { ScriptRunner } from './scripts.ts';

/** One budget operation as BUDGET_BATCH takes it (see scripts.ts for the modes). */
export interface BudgetOperation {
  mode: 's' | 'a' | 'c' | 'r';
  amount: number;
  lines: Array<{ name: string; limit: number; expireAt: number }>;
  credits: { name: string; refillAmount: number; refillStart: number } | null;
  creditsOperation?: { kind: 'set' | 'inc' | 'dec'; amount: number };
}

/** What BUDGET_BATCH answered for one operation. */
export interface BudgetReply {
  /** 0 admitted; the 1-based line that refused; -1 the balance. */
  refusal: number;
  /** The balance after the operation; null without one. */
  credits: { remaining: number; refilledAt: number } | null;
  used: number[];
}

/** Most operations one script call carries (a busier turn is split), as for the call batch. */
const MAX_BATCH_OPERATIONS = 100;

interface Queued {
  operation: BudgetOperation;
  resolve(reply: BudgetReply): void;
  reject(error: unknown): void;
}

/** The name an operation is routed by: all of its names share one slot group. */
const routeOf = (operation: BudgetOperation): string => operation.lines[0]?.name ?? operation.credits!.name;

function argsOf(operation: BudgetOperation): (string | number)[] {
  const args: (string | number)[] = [operation.mode, operation.amount, operation.lines.length];
  for (const line of operation.lines) args.push(line.name, line.limit, line.expireAt);
  const { credits, creditsOperation } = operation;
  args.push(credits?.name ?? '', credits?.refillAmount ?? 0, credits?.refillStart ?? 0);
  args.push(creditsOperation?.kind ?? '', creditsOperation?.amount ?? 0);
  return args;
}

/**
 * Sends the budget operations of an event-loop turn together, one script call per master (all of
 * one operation's names share its subject's slot group), like the call batch (call-batch.ts): under
 * load one call carries many requests, and a request alone goes out right after its I/O callback,
 * in the same turn as its key's rate-limit count, so the two travel side by side.
 */
export function createBudgetBatch(
  client: RedisClient,
  run: ScriptRunner,
  nodeOf?: (name: string) => string,
): (operation: BudgetOperation) => Promise<BudgetReply> {
  let queue: Queued[] = [];
  let scheduled = false;

  function send(part: Queued[]): void {
    const args = part.flatMap((queued) => argsOf(queued.operation));
    const route = routeOf(part[0]!.operation);
    let reply: Promise<unknown>;
    try {
      reply = run(1, route, ...args);
    } catch (error) {
      reply = Promise.reject(error);
    }
    reply.then(
      (answer) => settle(part, answer),
      (error: unknown) => {
        for (const queued of part) queued.reject(error);
      },
    );
  }

  function settle(part: Queued[], answer: unknown): void {
    const values = Array.isArray(answer) ? (answer as number[]) : [];
    let at = 0;
    for (const queued of part) {
      const n = queued.operation.lines.length;
      if (values.length < at + 3 + n) {
        queued.reject(new Error('Redis answered the budget batch with an unexpected reply'));
        continue;
      }
      const remaining = Number(values[at + 1]);
      queued.resolve({
        refusal: Number(values[at]),
        credits: remaining < 0 ? null : { remaining, refilledAt: Number(values[at + 2]) },
        used: values.slice(at + 3, at + 3 + n).map(Number),
      });
      at += 3 + n;
    }
  }

  function flush(): void {
    scheduled = false;
    const operations = queue;
    queue = [];
    if (client.status !== 'ready') {
      const error = new Error(`Redis connection is not ready (${client.status})`);
      for (const queued of operations) queued.reject(error);
      return;
    }
    for (const part of batchesOf(
      operations,
      (queued) => routeOf(queued.operation),
      nodeOf,
      MAX_BATCH_OPERATIONS,
    ))
      send(part);
  }

  return (operation) =>
    new Promise<BudgetReply>((resolve, reject) => {
      queue.push({ operation, resolve, reject });
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    });
}
