import type { AttemptResult, DeliveryOutcome } from './retry-policy.ts';

/** A delivery the worker took: marked `delivering`, with its attempt row already written. */
export interface DeliveryClaim {
  /** The webhook-id. */
  deliveryId: string;
  attemptId: number;
  endpointId: string;
  url: string;
  /** Current secret first, then the previous one while its overlap lasts. */
  secrets: string[];
  /** The event envelope, byte for byte what every attempt sends. */
  body: string;
  eventType: string;
  scheduleStep: number;
  /** Unix seconds: the attempt's webhook-timestamp. */
  webhookTimestamp: number;
  failingSince: string | null;
  /** The `traceparent` of the request that wrote the event, if it was traced. */
  traceparent: string | null;
}

/** The worker's storage port. Each method is one transaction. */
export interface DeliveryStore {
  /**
   * After a crash: attempts left open are closed as interrupted and `delivering` deliveries become
   * pending, due now, keeping their webhook-id and schedule step. Returns how many were recovered.
   */
  recoverInterrupted(at: Date): number;
  /**
   * Takes up to `limit` deliveries due at `at`, at most one per endpoint and only each enabled
   * endpoint's oldest unfinished one (per-endpoint order), marking them delivering.
   */
  claimDue(at: Date, limit: number): DeliveryClaim[];
  /** Stores the attempt's result and the delivery's and endpoint's next state. */
  completeAttempt(claim: DeliveryClaim, result: AttemptResult, outcome: DeliveryOutcome, at: Date): void;
  /** Closes an attempt cut short by shutdown: the delivery is pending again, due at once, step unchanged. */
  releaseAttempt(claim: DeliveryClaim, error: string, at: Date): void;
  /**
   * `delivering` deliveries whose latest attempt started before `startedBefore` and whose id is not
   * in `excludeIds` become pending again (same webhook-id, nothing else recorded). Returns how many.
   */
  requeueStale(startedBefore: Date, excludeIds: readonly string[]): number;
  /** The earliest due time of a pending delivery of an enabled endpoint, or null. */
  nextDueAt(): Date | null;
  /**
   * Deletes up to `limit` events created before `before`, oldest first, whose deliveries are all
   * finished (succeeded or failed; an event no endpoint wanted has none), with their deliveries and
   * attempts. Returns how many events went.
   */
  pruneFinished(before: Date, limit: number): number;
}
