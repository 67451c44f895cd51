import type { PlanLimit, PlanQuota } from '../model/budget.ts';
import { UsageError } from './cli-io.ts';

/**
 * The plan flags of the CLI, turned into the API's input (which validates the values):
 * `--limit NAME:WINDOW:LIMIT` (repeatable), `--quota PERIOD:LIMIT` (repeatable),
 * `--refill daily:AMOUNT` or `--refill monthly:AMOUNT[:DAY]` (`none` removes it on an update),
 * `--credits N [--credits-low-at N]` on a key or an identity (`--credits-low-at none` removes the
 * level on an update).
 */

const number = (text: string | undefined, flag: string): number => {
  if (text === undefined || !/^\d+$/.test(text)) throw new UsageError(`--${flag} needs whole numbers`);
  return Number(text);
};

/** `--limit` values → limits. */
export function limitsOf(values: string[] | undefined): PlanLimit[] | undefined {
  return values?.map((value) => {
    const [name = '', window = '', limit] = value.split(':');
    return { name, window, limit: number(limit, 'limit') } as PlanLimit;
  });
}

/** `--quota` values → quotas. */
export function quotasOf(values: string[] | undefined): PlanQuota[] | undefined {
  return values?.map((value) => {
    const [period = '', limit] = value.split(':');
    return { period, limit: number(limit, 'quota') } as PlanQuota;
  });
}

/** `--refill` → the plan's credits member (null for `none`), or undefined when absent. */
export function creditsOf(value: string | undefined): object | null | undefined {
  if (value === undefined) return undefined;
  if (value === 'none') return null;
  const [interval, amount, day] = value.split(':');
  return {
    refill: {
      interval,
      amount: number(amount, 'refill'),
      ...(day === undefined ? {} : { day: number(day, 'refill') }),
    },
  };
}

/**
 * `--credits` and `--credits-low-at` of a key or an identity being created → its credits member
 * (undefined when neither is given). A level needs a balance to watch: alone it is a usage error.
 */
export function creditsInputOf(
  remaining: string | undefined,
  lowAt: string | undefined,
): { remaining: number; lowAt?: number } | undefined {
  if (remaining === undefined) {
    if (lowAt !== undefined)
      throw new UsageError('--credits-low-at needs --credits N (the balance it watches)');
    return undefined;
  }
  const credits = { remaining: wholeNumber(remaining, 'credits') };
  return lowAt === undefined ? credits : { ...credits, lowAt: wholeNumber(lowAt, 'credits-low-at') };
}

/** One whole-number flag, with the message the keys commands give for theirs. */
function wholeNumber(text: string, flag: string): number {
  if (!/^\d+$/.test(text)) throw new UsageError(`--${flag} must be a whole number`);
  return Number(text);
}

/** `--credits-low-at N|none` of an update → the credits member of a PATCH, or undefined when absent. */
export function creditsLowAtPatchOf(value: string | undefined): { lowAt: number | null } | undefined {
  if (value === undefined) return undefined;
  return { lowAt: value === 'none' ? null : wholeNumber(value, 'credits-low-at') };
}
