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
   * Takes each account's charge (milliseconds this process spent since its last settle) from its
   * shared bucket, after refilling the bucket by `msPerWindow` per `windowMs` up to `msPerWindow`
   * as of `nowMs` (a bucket first settled starts full); returns what each bucket holds after.
   */
  settle(
    charges: ReadonlyMap<string, number>,
    nowMs: number,
    msPerWindow: number,
    windowMs: number,
  ): Promise<Map<string, number>>;
}
