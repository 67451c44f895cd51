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

/** A ring buffer of `capacity` items; `onDrop` is told how many items were discarded. */
export function createLogBuffer<T>(capacity: number, onDrop: (count: number) => void): LogBuffer<T> {
  let ring = new Array<T | undefined>(capacity);
  let head = 0;
  let count = 0;
  const buffer: LogBuffer<T> = {
    push(item) {
      ring[(head + count) % capacity] = item;
      if (count < capacity) count++;
      else {
        head = (head + 1) % capacity;
        onDrop(1);
      }
    },
    drain() {
      const items: T[] = [];
      for (let i = 0; i < count; i++) items.push(ring[(head + i) % capacity] as T);
      ring = new Array<T | undefined>(capacity);
      head = 0;
      count = 0;
      return items;
    },
    restore(items) {
      const newer = buffer.drain();
      const merged = [...items, ...newer];
      const overflow = Math.max(0, merged.length - capacity);
      if (overflow > 0) onDrop(overflow);
      for (const item of merged.slice(overflow)) buffer.push(item);
    },
    get size() {
      return count;
    },
  };
  return buffer;
}
