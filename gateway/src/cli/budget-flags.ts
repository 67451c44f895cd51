import type { PlanLimit, PlanQuota } from '../model/budget.ts';
import { UsageError } from './cli-io.ts';

/**
 * The plan flags of the CLI, turned into the API's input (which validates the values):
 * `--limit NAME:WINDOW:LIMIT` (repeatable), `--quota PERIOD:LIMIT` (repeatable),
 * `--refill daily:AMOUNT` or `--refill monthly:AMOUNT[:DAY]` (`none` removes it on an update).
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
