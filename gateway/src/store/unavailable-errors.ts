import type { BudgetLedger } from '../budget/ledger.ts';
import { GatewayError } from '../errors.ts';
import { InvalidCursorError } from './cursor.ts';

/**
 * Drops what a driver attached about the failed command (ioredis sets `command` = name and
 * arguments: key JSON, lookups, secret hashes) so the error can be logged whole. Returns `error`.
 */
export function stripCommandDetails(error: unknown): unknown {
  if (error !== null && typeof error === 'object' && 'command' in error) {
    delete (error as { command?: unknown }).command;
  }
  return error;
}

/** The 503 a caller gets when the store failed; the store's own error (minus its command) is kept as `cause`. */
export function storeUnavailableError(cause: unknown): GatewayError {
  stripCommandDetails(cause);
  return Object.assign(
    new GatewayError('STORE_UNAVAILABLE', 'The key store is not answering; retry shortly.'),
    { cause },
  );
}

/**
 * Wraps a shared store so every failed call (the KeyStore contract: stores throw only for I/O
 * failure) rejects with 503 STORE_UNAVAILABLE instead of an internal error, and is reported to
 * `onError` with the method name. A commit is one atomic script, so it applied entirely or not at
 * all, but a failure does not say which: the answer may be lost after the script ran (timeout,
 * dropped connection). Stores settle that themselves where they can (the Redis store reads the
 * change back) and otherwise throw 503 OUTCOME_UNKNOWN, which passes through here. Results and synchronous returns pass through untouched, and every
 * call still reaches the store in the same tick (auto-pipelining is unaffected).
 */
export function withUnavailableErrors<S extends object>(store: S, onError?: (method: string) => void): S {
  const wrapped: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(store)) {
    if (typeof value !== 'function' || name === 'close') {
      wrapped[name] = value;
      continue;
    }
    const method = value as (...args: unknown[]) => unknown;
    wrapped[name] = (...args: unknown[]) => {
      const fail = (cause: unknown): never => {
        // A cursor the store did not make is the caller's mistake (422), not the store failing.
        if (cause instanceof GatewayError || cause instanceof InvalidCursorError) throw cause;
        onError?.(name);
        throw storeUnavailableError(cause);
      };
      let result: unknown;
      try {
        result = method.apply(store, args);
      } catch (cause) {
        return fail(cause);
      }
      return result instanceof Promise ? result.catch(fail) : result;
    };
  }
  return wrapped as S;
}

/**
 * The shared budget ledger with the same 503s: while Redis does not answer, a call metered by a plan,
 * a quota or credits is refused with STORE_UNAVAILABLE (its budget cannot be checked, so it is not
 * spent); keys without a budget are not affected.
 */
export function withLedgerUnavailableErrors(
  ledger: BudgetLedger,
  onError?: (method: string) => void,
): BudgetLedger {
  return withUnavailableErrors(ledger, (method) => onError?.(`ledger.${method}`));
}
