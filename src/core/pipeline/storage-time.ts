import { ApiError } from '../errors.js';
import type { Clock } from '../runtime.js';
import type { Storage } from '../storage.js';

/**
 * How much of a server's storage time one account's requests may take. The request limit counts
 * requests, and requests differ in cost by four orders of magnitude: a GET by id takes tens of µs
 * of the database, a search for a word in every one of a million issues over a second. A SQLite
 * server runs one statement at a time, so without this one tenant sending 100 such searches a
 * minute would hold it all the time. GitHub's API limits CPU time per minute the same way
 * ("secondary rate limits").
 */
export interface StorageTimeBudgetOptions {
  /** Storage milliseconds an account's share refills by each window, and the most it saves up; default 10,000. */
  msPerWindow?: number;
  /** The window, in milliseconds; default 60,000. */
  windowMs?: number;
}

/**
 * Each account's storage time, as a bucket of milliseconds refilled steadily (`msPerWindow` per
 * `windowMs`, never more than `msPerWindow` saved up). A request is admitted while its account's
 * bucket is not empty and charged, once it has run, what its transaction took
 * (StorageTx.busyMs). So over any span of time T an account takes at most
 * `msPerWindow × (1 + T / windowMs)` (what it saved up, and what refilled), plus the requests that
 * overdraw its bucket: one where the storage runs requests one at a time, as many as run at once
 * elsewhere. Kept in this process's memory, per server process.
 */
export interface StorageTimeBudget {
  /** Null when the account may send a request now, else the seconds until it may. */
  refusal(accountId: string, nowMs: number): number | null;
  /** Charges the account `busyMs` of storage time spent at `nowMs`. */
  charge(accountId: string, busyMs: number, nowMs: number): void;
}

interface Bucket {
  /** Milliseconds left as of `atMs` (negative when the last request overdrew). */
  left: number;
  atMs: number;
}

export function storageTimeBudget(options: StorageTimeBudgetOptions = {}): StorageTimeBudget {
  const capacity = options.msPerWindow ?? 10_000;
  const windowMs = options.windowMs ?? 60_000;
  if (!(capacity > 0) || !Number.isFinite(capacity)) {
    throw new RangeError('storageTimeBudget.msPerWindow must be a positive number of milliseconds');
  }
  if (!Number.isInteger(windowMs) || windowMs < 1) {
    throw new RangeError('storageTimeBudget.windowMs must be a positive whole number of milliseconds');
  }
  const refillPerMs = capacity / windowMs;
  const buckets = new Map<string, Bucket>();
  let nextSweep = 0;

  const leftAt = (bucket: Bucket, nowMs: number): number =>
    Math.min(capacity, bucket.left + Math.max(0, nowMs - bucket.atMs) * refillPerMs);

  return {
    refusal(accountId, nowMs) {
      const bucket = buckets.get(accountId);
      if (!bucket) return null;
      const left = leftAt(bucket, nowMs);
      if (left > 0) return null;
      // Until the bucket holds something again.
      return Math.max(1, Math.ceil((-left / refillPerMs + 1) / 1000));
    },
    charge(accountId, busyMs, nowMs) {
      if (nowMs >= nextSweep) {
        // Forget the accounts whose buckets are full again, so idle tenants cost no memory.
        for (const [id, bucket] of buckets) if (leftAt(bucket, nowMs) >= capacity) buckets.delete(id);
        nextSweep = nowMs + windowMs;
      }
      if (!(busyMs > 0)) return;
      const bucket = buckets.get(accountId);
      if (!bucket) {
        buckets.set(accountId, { left: capacity - busyMs, atMs: nowMs });
        return;
      }
      bucket.left = leftAt(bucket, nowMs) - busyMs;
      bucket.atMs = nowMs;
    },
  };
}

export const storageTimeSpent = (retryAfter: number): ApiError =>
  new ApiError(
    429,
    'rate_limited',
    `This account's requests have used their share of this server's storage time; retry in ${retryAfter} s.`,
    { retryAfter },
    { 'Retry-After': String(retryAfter) },
  );

/**
 * The storage an admitted request's work after its commit uses (an event stream's reads, the
 * completion of its idempotency record): each of its transactions is charged to the account as
 * the request's own is. With `throttle`, one begun while the account's share is spent waits
 * until it refills: a stream reading a long log, or polling, goes at the pace of the share
 * instead of around it.
 */
export function chargedStorage(
  storage: Storage,
  budget: StorageTimeBudget,
  accountId: string,
  clock: Clock,
  throttle: boolean,
): Storage {
  return {
    async transaction(fn, options) {
      let wait = throttle ? budget.refusal(accountId, clock.now()) : null;
      while (wait !== null) {
        // Looked at again each second at most: the clock may say otherwise sooner than foreseen.
        const ms = Math.min(1000, wait * 1000);
        await new Promise((resolve) => setTimeout(resolve, ms));
        wait = budget.refusal(accountId, clock.now());
      }
      return storage.transaction(async (tx) => {
        try {
          return await fn(tx);
        } finally {
          budget.charge(accountId, tx.busyMs(), clock.now());
        }
      }, options);
    },
    close: () => storage.close(),
  };
}
