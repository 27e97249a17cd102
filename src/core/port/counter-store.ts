export interface CounterStore {
  /**
   * Increments the named counter (starting from 0) and returns the new value. Concurrency
   * contract: concurrent transactions get distinct values, and one that rolls back gives its
   * values back, so the values of committed transactions run from 1 without a gap.
   */
  next(name: string): Promise<number>;
  /** Sets the counter (a copy of a whole database): the next `next` returns `value + 1`. */
  set(name: string, value: number): Promise<void>;
}
