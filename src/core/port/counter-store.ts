/**
 * Named counters, each of one workspace (issue numbers: `issues:<project id>`). A name is unique
 * in the database; the workspace says where the counter lives (its account).
 */
export interface CounterStore {
  /**
   * Increments the named counter (starting from 0) and returns the new value. Concurrency
   * contract: concurrent transactions get distinct values, and one that rolls back gives its
   * values back, so the values of committed transactions run from 1 without a gap.
   */
  next(workspaceId: string, name: string): Promise<number>;
  /** Sets the counter (a copy of a whole database): the next `next` returns `value + 1`. */
  set(workspaceId: string, name: string, value: number): Promise<void>;
}
