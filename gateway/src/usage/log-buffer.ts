/** A bounded FIFO that drops its oldest items when full. */
export interface LogBuffer<T> {
  /** Appends an item, dropping the oldest one when full. */
  push(item: T): void;
  /** Removes and returns every item, oldest first. */
  drain(): T[];
  /** Puts back items that failed to flush, ahead of newer ones, within the bound. */
  restore(items: readonly T[]): void;
  readonly size: number;
}

/**
 * A growing array read from `start` (items before it were dropped): push and drop are O(1)
 * amortized, and a drain hands the array over instead of copying it or allocating `capacity` slots.
 * `onDrop` is told how many items were discarded.
 */
export function createLogBuffer<T>(capacity: number, onDrop: (count: number) => void): LogBuffer<T> {
  let items: T[] = [];
  let start = 0;
  const buffer: LogBuffer<T> = {
    push(item) {
      items.push(item);
      if (items.length - start > capacity) {
        start++;
        onDrop(1);
        // Dropped items are released once they are as many as the kept ones.
        if (start >= capacity) {
          items = items.slice(start);
          start = 0;
        }
      }
    },
    drain() {
      const out = start === 0 ? items : items.slice(start);
      items = [];
      start = 0;
      return out;
    },
    restore(older) {
      const newer = buffer.drain();
      const merged = [...older, ...newer];
      const overflow = Math.max(0, merged.length - capacity);
      if (overflow > 0) onDrop(overflow);
      items = overflow > 0 ? merged.slice(overflow) : merged;
    },
    get size() {
      return items.length - start;
    },
  };
  return buffer;
}
