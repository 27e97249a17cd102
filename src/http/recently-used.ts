/**
 * A map that keeps the `capacity` most recently used entries: a read moves its entry to the end
 * of the order, and an entry set beyond the capacity lets the least recently used one go.
 */
export class RecentlyUsed<K, V> {
  /** Most recently used last (a Map iterates in insertion order), so the first is let go first. */
  private readonly entries = new Map<K, V>();

  constructor(private readonly capacity: number) {}

  /** The value kept for `key`, now the most recently used, or undefined. */
  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  /** Keeps `value` for `key`, letting the least recently used entry go beyond the capacity. */
  set(key: K, value: V): void {
    this.entries.set(key, value);
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value as K;
      this.entries.delete(oldest);
    }
  }

  values(): IterableIterator<V> {
    return this.entries.values();
  }

  clear(): void {
    this.entries.clear();
  }
}
