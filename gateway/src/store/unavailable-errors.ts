import { GatewayError } from '../errors.ts';
import type { KeyStore } from './store.ts';

/** The 503 a caller gets when the store failed; the store's own error is kept as `cause` (logged, never sent). */
export function storeUnavailableError(cause: unknown): GatewayError {
  return Object.assign(
    new GatewayError('STORE_UNAVAILABLE', 'The key store is not answering; retry shortly.'),
    { cause },
  );
}

/**
 * Wraps a shared store so every failed call (the KeyStore contract: stores throw only for I/O
 * failure) rejects with 503 STORE_UNAVAILABLE instead of an internal error, and is reported to
 * `onError` with the method name. A change the store refused this way was not applied: commits
 * are single atomic scripts. Results and synchronous returns pass through untouched, and every
 * call still reaches the store in the same tick (auto-pipelining is unaffected).
 */
export function withUnavailableErrors<S extends KeyStore>(store: S, onError?: (method: string) => void): S {
  const wrapped: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(store)) {
    if (typeof value !== 'function' || name === 'close') {
      wrapped[name] = value;
      continue;
    }
    const method = value as (...args: unknown[]) => unknown;
    wrapped[name] = (...args: unknown[]) => {
      const fail = (cause: unknown): never => {
        if (cause instanceof GatewayError) throw cause;
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
