/** An account's bucket as the shared store last left it: `left` milliseconds as of `atMs`. */
export interface SharedBucket {
  left: number;
  /** When a process last settled the account: its last use of the storage, within a settle interval. */
  atMs: number;
}

/**
 * Each account's bucket, kept where several processes share it (the PostgreSQL adapter's table).
 *
 * Concurrency contract: concurrent `settle`s naming one account, from one process or from every
 * process using the store, behave as if run one after another: each refills the bucket the
 * previous one left to `nowMs` and takes its charge from it, so no charge is lost. A store is
 * called outside any storage transaction, so it must not assume it runs in one.
 */
export interface StorageTimeStore {
  /**
   * Takes each account's charge (milliseconds this process spent since its last settle, 0 for
   * an account it served at no charge) from its shared bucket, after refilling the bucket by
   * `msPerWindow` per `windowMs` up to `msPerWindow` as of `nowMs` (a bucket first settled starts
   * full), and marks the bucket settled at `nowMs`. Returns each charged account's bucket after
   * its charge, and the bucket of every other account some process settled at `activeSinceMs` or
   * later: who else is using the storage, and how much of its share it has left.
   */
  settle(
    charges: ReadonlyMap<string, number>,
    nowMs: number,
    msPerWindow: number,
    windowMs: number,
    activeSinceMs: number,
  ): Promise<Map<string, SharedBucket>>;
}
