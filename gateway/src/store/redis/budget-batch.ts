import { batchesOf } from './call-batch.ts';
import type { RedisClient } from './connection.ts';
import type { ScriptRunner } from './scripts.ts';

/** One line of an operation: its field in its subject's budget hash, current window and limit. */
export interface BudgetOperationLine {
  /** Its index in the policy's lines (the order of the reply's counts). */
  at: number;
  field: string;
  windowStart: number;
  limit: number;
}

/** One budget operation as BUDGET_BATCH takes it (see scripts.ts for the modes). */
export interface BudgetOperation {
  mode: 's' | 'a' | 'r';
  amount: number;
  /** The budget hash of each subject (all in one slot group) and the lines it holds. */
  hashes: Array<{ name: string; lines: BudgetOperationLine[] }>;
  /** Which of `hashes` holds the balance, and its refill. */
  credits: { hash: number; refillAmount: number; refillStart: number } | null;
}

/** What BUDGET_BATCH answered for one operation. */
export interface BudgetReply {
  /** 0 admitted; the 1-based policy line that refused (the first that has no room); -1 the balance. */
  refusal: number;
  /** The balance after the operation; null without one. */
  credits: { remaining: number; refilledAt: number } | null;
  /** Each policy line's count after the operation, in policy order. */
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
const routeOf = (operation: BudgetOperation): string => operation.hashes[0]!.name;

function argsOf(operation: BudgetOperation): (string | number)[] {
  const { mode, amount, hashes, credits } = operation;
  const args: (string | number)[] = [mode, amount, credits ? credits.hash + 1 : 0, hashes.length];
  for (const hash of hashes) {
    args.push(hash.name, hash.lines.length);
    for (const line of hash.lines) args.push(line.field, line.windowStart, line.limit);
  }
  if (credits) args.push(credits.refillAmount, credits.refillStart);
  return args;
}

/**
 * One operation's reply, back in policy order. The script gets lines grouped by hash and names the
 * first of them without room; a refusal names the first policy line without room instead, as
 * decide.ts does, found in the counts it answered (unchanged, since nothing was spent).
 */
function replyOf(operation: BudgetOperation, values: unknown[], at: number): BudgetReply {
  const used: number[] = [];
  let next = at + 3;
  for (const hash of operation.hashes) for (const line of hash.lines) used[line.at] = Number(values[next++]);
  let refusal = Number(values[at]);
  if (refusal > 0) {
    refusal = used.length;
    for (const hash of operation.hashes)
      for (const line of hash.lines)
        if (used[line.at]! + operation.amount > line.limit) refusal = Math.min(refusal, line.at + 1);
  }
  const remaining = Number(values[at + 1]);
  return {
    refusal,
    credits: remaining < 0 ? null : { remaining, refilledAt: Number(values[at + 2]) },
    used,
  };
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
    const values = Array.isArray(answer) ? (answer as unknown[]) : [];
    let at = 0;
    for (const queued of part) {
      const n = queued.operation.hashes.reduce((sum, hash) => sum + hash.lines.length, 0);
      if (values.length < at + 3 + n) {
        queued.reject(new Error('Redis answered the budget batch with an unexpected reply'));
        continue;
      }
      queued.resolve(replyOf(queued.operation, values, at));
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
