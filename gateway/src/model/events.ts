/** Tells every cache in this process (and, with Redis, every instance) that a key changed. */
export interface KeyEvents {
  /**
   * Announces that the key with this id changed; listeners drop what they cached for it. `lookups`:
   * the token lookups of the secrets the change created or touched, so refusals remembered for
   * them are forgotten (a key created or rotated works on its first call).
   */
  publish(keyId: string, lookups?: readonly string[]): void;
  /** Registers a listener (`lookups` as published, when known); returns a function that removes it. */
  subscribe(listener: KeyEventListener): () => void;
  /** Announces that a plan or an identity changed (or went); budget listeners drop what they cached of it. */
  publishBudget(change: BudgetChange): void;
  /** Registers a listener of plan and identity changes (this instance's and, with Redis, every instance's); returns an unsubscribe. */
  subscribeBudget(listener: BudgetEventListener): () => void;
  /**
   * Shared events only (Redis): registers a listener for "events may have been lost" (the
   * subscriber reconnected); listeners drop everything they cached. Returns an unsubscribe.
   */
  onReset?(listener: () => void): () => void;
  /**
   * Shared events only (Redis): registers a listener for "the subscriber lost its connection"
   * (events published from now on may be lost until the next reset). Returns an unsubscribe.
   */
  onLost?(listener: () => void): () => void;
  /**
   * Shared events only (Redis): resolves once every event published before the call has reached
   * the listeners. Events come on a connection of their own, so one announcing a write that
   * finished before a request arrived may still be unread when the request is handled.
   */
  settle?(): Promise<void>;
}

/** Called with the changed key's id and, when the event names them, its secrets' token lookups. */
export type KeyEventListener = (keyId: string, lookups?: readonly string[]) => void;

/** A plan or an identity that changed: what caches of budgets key on. */
export interface BudgetChange {
  kind: 'plan' | 'identity';
  id: string;
}

/** Called with each plan or identity change. */
export type BudgetEventListener = (change: BudgetChange) => void;

/** In-process key events: listeners run synchronously inside `publish` and `publishBudget`. */
export function createLocalKeyEvents(): KeyEvents {
  const listeners = new Set<KeyEventListener>();
  const budgetListeners = new Set<BudgetEventListener>();
  return {
    publish(keyId, lookups) {
      for (const listener of listeners) listener(keyId, lookups);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    publishBudget(change) {
      for (const listener of budgetListeners) listener(change);
    },
    subscribeBudget(listener) {
      budgetListeners.add(listener);
      return () => budgetListeners.delete(listener);
    },
  };
}
