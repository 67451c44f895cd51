/** Tells every cache in this process (and, with Redis, every instance) that a key changed. */
export interface KeyEvents {
  /** Announces that the key with this id changed; listeners drop what they cached for it. */
  publish(keyId: string): void;
  /** Registers a listener; returns a function that removes it. */
  subscribe(listener: (keyId: string) => void): () => void;
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
}

/** In-process key events: listeners run synchronously inside `publish`. */
export function createLocalKeyEvents(): KeyEvents {
  const listeners = new Set<(keyId: string) => void>();
  return {
    publish(keyId) {
      for (const listener of listeners) listener(keyId);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
