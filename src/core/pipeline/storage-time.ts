import { ApiError } from '../errors.js';
import type { Storage } from '../port/storage.js';
import type { StorageTimeStore } from '../port/storage-time-store.js';
import type { Clock } from '../runtime.js';

export type { StorageTimeStore };

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
  /**
   * Where the buckets are shared with other processes on the same database; default: none, each
   * process keeps its own. The tracker takes the storage's (`Storage.storageTimes`) unless told.
   */
  store?: StorageTimeStore;
}

/**
 * How often a process with charges not yet settled settles them with a shared store: the lag
 * with which one process's spending reaches the others, and so how much more than its share an
 * account can take on N processes (see StorageTimeBudget).
 */
export const storageTimeSettleMs = 1000;

/**
 * Each account's storage time, as a bucket of milliseconds refilled steadily (`msPerWindow` per
 * `windowMs`, never more than `msPerWindow` saved up). A request is admitted while its account's
 * bucket is not empty and charged, once it has run, what its transaction took
 * (StorageTx.busyMs). So over any span of time T an account takes at most
 * `msPerWindow × (1 + T / windowMs)` (what it saved up, and what refilled), plus the requests that
 * overdraw its bucket: one where the storage runs requests one at a time, as many as run at once
 * elsewhere.
 *
 * Without a store the buckets are this process's: N processes give an account N shares. With one
 * (StorageTimeStore), each process still decides from its own copy of a bucket, at no cost to a
 * request, and settles what it charged with the store every `storageTimeSettleMs`, which hands
 * back the shared bucket's level: the account's spending on every process then comes out of one
 * share, the others' reaching a process at its own next settle (a settle interval after it next
 * charges the account). A shared bucket may go below zero, and refills from there, so over time
 * an account gets one share; what N processes can take before they hear of each other is at most
 * N shares saved up, plus what each spends in a settle interval.
 */
export interface StorageTimeBudget {
  /** Null when the account may send a request now, else the seconds until it may. */
  refusal(accountId: string, nowMs: number): number | null;
  /** Charges the account `busyMs` of storage time spent at `nowMs`. */
  charge(accountId: string, busyMs: number, nowMs: number): void;
  /**
   * Settles what is left to settle with the store, once (waiting a settle interval at most), and
   * settles no more: the tracker calls it as it closes, before its storage (and so a database
   * store) closes. Charges made after it are not settled.
   */
  close(): Promise<void>;
}

interface Bucket {
  /** Milliseconds left as of `atMs` (negative when the last request overdrew). */
  left: number;
  atMs: number;
}

/**
 * What `bucket` holds at `nowMs`: refilled by `msPerWindow` each `windowMs` since its time, never
 * past `msPerWindow`; nothing refills for a clock behind the bucket's.
 */
function refilled(bucket: Bucket, nowMs: number, msPerWindow: number, windowMs: number): number {
  return Math.min(msPerWindow, bucket.left + Math.max(0, nowMs - bucket.atMs) * (msPerWindow / windowMs));
}

export function storageTimeBudget(
  options: StorageTimeBudgetOptions = {},
  now: () => number = Date.now,
  /** Told when settling with the store fails after it did not (once a run of failures). */
  onSettleError: (error: unknown) => void = () => {},
): StorageTimeBudget {
  const capacity = options.msPerWindow ?? 10_000;
  const windowMs = options.windowMs ?? 60_000;
  if (!(capacity > 0) || !Number.isFinite(capacity)) {
    throw new RangeError('storageTimeBudget.msPerWindow must be a positive number of milliseconds');
  }
  if (!Number.isInteger(windowMs) || windowMs < 1) {
    throw new RangeError('storageTimeBudget.windowMs must be a positive whole number of milliseconds');
  }
  const refillPerMs = capacity / windowMs;
  const store = options.store;
  const buckets = new Map<string, Bucket>();
  let nextSweep = 0;

  /** Charges not yet settled with the store, by account. */
  let unsettled = new Map<string, number>();
  let settleTimer: ReturnType<typeof setTimeout> | null = null;
  let settling: Promise<void> | null = null;
  let closed = false;
  let failing = false;

  function settleSoon(): void {
    if (settleTimer || closed) return;
    settleTimer = setTimeout(() => {
      settling = settle().finally(() => {
        settling = null;
        settleTimer = null;
        if (unsettled.size > 0) settleSoon();
      });
    }, storageTimeSettleMs);
    // A process with nothing else to do is not kept alive for this: what it did not settle is at
    // most one interval's charges.
    settleTimer.unref?.();
  }

  /** Settles the charges made so far and takes the shared buckets' levels as this process's. */
  async function settle(): Promise<void> {
    const charges = unsettled;
    unsettled = new Map();
    const nowMs = now();
    try {
      const shared = await (store as StorageTimeStore).settle(charges, nowMs, capacity, windowMs);
      for (const [accountId, left] of shared) {
        // What this process charged while the store answered is not in its answer: still owed.
        buckets.set(accountId, { left: left - (unsettled.get(accountId) ?? 0), atMs: nowMs });
      }
      failing = false;
    } catch (error) {
      if (!failing) onSettleError(error);
      failing = true;
      // The store is out of reach (the database is down): the charges wait for the next settle,
      // and each process goes on deciding from its own buckets meanwhile.
      for (const [accountId, ms] of charges) unsettled.set(accountId, (unsettled.get(accountId) ?? 0) + ms);
    }
  }

  const leftAt = (bucket: Bucket, nowMs: number): number => refilled(bucket, nowMs, capacity, windowMs);

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
      if (!bucket) buckets.set(accountId, { left: capacity - busyMs, atMs: nowMs });
      else {
        bucket.left = leftAt(bucket, nowMs) - busyMs;
        bucket.atMs = nowMs;
      }
      if (store) {
        unsettled.set(accountId, (unsettled.get(accountId) ?? 0) + busyMs);
        settleSoon();
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      if (settleTimer) clearTimeout(settleTimer);
      // A database that does not answer does not hold the shutdown: the last settle is given up
      // on after a settle interval, and its charges (at most a second's) are forgotten.
      const last = (async () => {
        await settling;
        if (store && unsettled.size > 0) await settle();
      })();
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        last,
        new Promise((resolve) => (timer = setTimeout(resolve, storageTimeSettleMs))),
      ]);
      clearTimeout(timer);
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

/**
 * A StorageTimeStore in this process's memory: for several trackers in one process (as many
 * tenants' servers in one test) to share the accounts' shares, and the reference the database
 * stores follow. Buckets refilled to full are forgotten.
 */
export function memoryStorageTimeStore(): StorageTimeStore {
  const buckets = new Map<string, Bucket>();
  let nextSweep = 0;
  return {
    async settle(charges, nowMs, msPerWindow, windowMs) {
      const levels = new Map<string, number>();
      for (const [accountId, charge] of charges) {
        const bucket = buckets.get(accountId);
        const left = (bucket ? refilled(bucket, nowMs, msPerWindow, windowMs) : msPerWindow) - charge;
        buckets.set(accountId, { left, atMs: Math.max(bucket?.atMs ?? nowMs, nowMs) });
        levels.set(accountId, left);
      }
      if (nowMs >= nextSweep) {
        for (const [accountId, bucket] of buckets) {
          if (refilled(bucket, nowMs, msPerWindow, windowMs) >= msPerWindow) buckets.delete(accountId);
        }
        nextSweep = nowMs + windowMs;
      }
      return levels;
    },
  };
}
