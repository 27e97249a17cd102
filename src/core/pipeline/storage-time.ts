import { ApiError } from '../errors.js';
import type { Storage } from '../port/storage.js';
import type { StorageTimeStore } from '../port/storage-time-store.js';
import type { Clock } from '../runtime.js';
import { type Bucket, refilled } from './storage-time-bucket.js';

export { memoryStorageTimeStore } from './storage-time-memory-store.js';
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
 * How long an account counts as using the storage after its last request or stream read: while
 * it does, and has some of its share left, the accounts that have used theirs are held to them.
 */
export const storageTimeActiveMs = 2000;

/**
 * How long the accounts found active with share left are taken as they are before they are
 * looked at again: the lag with which one going quiet, or refilling, is noticed. An account
 * becoming active, or using up its share, is noticed at once.
 */
const rivalsKeptMs = 250;

/**
 * Each account's storage time, as a bucket of milliseconds refilled steadily (`msPerWindow` per
 * `windowMs`, never more than `msPerWindow` saved up), spent by what its transactions took
 * (StorageTx.busyMs) and its answers took to serialize. Work-conserving: a request is refused
 * only when its account's bucket is empty **and** another account with some of its share left is
 * active (its requests or stream reads used the storage within `storageTimeActiveMs`): a rival
 * the refusal makes room for. An account alone, or beside accounts that have all used their
 * shares too, is admitted whatever it takes; what it takes while no rival is active empties its
 * bucket at most, never into debt, so a rival that comes later finds it at its share at once
 * instead of owed hours of an idle server. So an account that has not used its share is never
 * refused, whatever the others do; and over any span of time T throughout which a rival is active,
 * an account takes at most `msPerWindow × T / windowMs` plus what its bucket held at the start (at
 * most `msPerWindow`), plus the requests that overdraw it: one where the storage runs requests one
 * at a time, as many as run at once elsewhere.
 *
 * The check costs a request a map lookup while its account has share left; the set of rivals is
 * looked at only for an account that has none, and kept for `rivalsKeptMs`.
 *
 * Without a store the buckets, and who is active, are this process's: N processes give an
 * account N shares. With one (StorageTimeStore), each process still decides from its own copy of
 * a bucket, at no cost to a request, and settles what it charged with the store every
 * `storageTimeSettleMs`, which hands back the shared bucket's level and the accounts other
 * processes served lately: the account's spending on every process then comes out of one share,
 * the others' reaching a process at its own next settle (a settle interval after it next charges
 * the account), and a rival on another process is seen there as on this one. A shared bucket may
 * go below zero, and refills from there, so over time an account gets one share; what N
 * processes can take before they hear of each other is at most N shares saved up, plus what each
 * spends in a settle interval.
 */
export interface StorageTimeBudget {
  /** As `refusal`, for a request about to start: the account counts as active from now on. */
  admit(accountId: string, nowMs: number): number | null;
  /** Null when the account may use the storage now, else the seconds until its share refills. */
  refusal(accountId: string, nowMs: number): number | null;
  /** Charges the account `busyMs` of storage time spent at `nowMs` (and so it is active). */
  charge(accountId: string, busyMs: number, nowMs: number): void;
  /**
   * Settles what is left to settle with the store, once (waiting a settle interval at most), and
   * settles no more: the tracker calls it as it closes, before its storage (and so a database
   * store) closes. Charges made after it are not settled.
   */
  close(): Promise<void>;
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
  /** When each account last used the storage, here or (as last settled) on another process. */
  const seen = new Map<string, number>();
  /** The active accounts with share left, as of `rivalsAtMs`; null: look again. */
  let rivals: Set<string> | null = null;
  let rivalsAtMs = 0;
  let nextSweep = 0;

  /** Charges not yet settled with the store, by account. */
  let unsettled = new Map<string, number>();
  let settleTimer: ReturnType<typeof setTimeout> | null = null;
  let settling: Promise<void> | null = null;
  let closed = false;
  let failing = false;

  const leftAt = (bucket: Bucket, nowMs: number): number => refilled(bucket, nowMs, capacity, windowMs);
  const leftOf = (accountId: string, nowMs: number): number => {
    const bucket = buckets.get(accountId);
    return bucket ? leftAt(bucket, nowMs) : capacity;
  };

  function markActive(accountId: string, nowMs: number): void {
    const last = seen.get(accountId);
    if (last !== undefined && last >= nowMs) return;
    // One becoming active with share left is a rival at once, not at the next look.
    if (
      rivals &&
      (last === undefined || last < nowMs - storageTimeActiveMs) &&
      leftOf(accountId, nowMs) > 0
    ) {
      rivals.add(accountId);
    }
    seen.set(accountId, nowMs);
  }

  function rivalsAt(nowMs: number): Set<string> {
    if (rivals && nowMs >= rivalsAtMs && nowMs < rivalsAtMs + rivalsKeptMs) return rivals;
    const found = new Set<string>();
    for (const [accountId, lastMs] of seen) {
      if (lastMs < nowMs - storageTimeActiveMs) seen.delete(accountId);
      else if (leftOf(accountId, nowMs) > 0) found.add(accountId);
    }
    rivals = found;
    rivalsAtMs = nowMs;
    return found;
  }

  /** Whether another account with share left is active: one the account's refusal would make room for. */
  function contended(accountId: string, nowMs: number): boolean {
    const found = rivalsAt(nowMs);
    return found.size > (found.has(accountId) ? 1 : 0);
  }

  function sweep(nowMs: number): void {
    // Forget the accounts whose buckets are full again, and those gone quiet, so idle tenants
    // cost no memory.
    for (const [id, bucket] of buckets) if (leftAt(bucket, nowMs) >= capacity) buckets.delete(id);
    for (const [id, lastMs] of seen) if (lastMs < nowMs - storageTimeActiveMs) seen.delete(id);
    rivals = null;
    nextSweep = nowMs + windowMs;
  }

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

  /**
   * Settles the charges made so far, takes the shared buckets' levels as this process's, and
   * learns which accounts other processes served lately.
   */
  async function settle(): Promise<void> {
    const charges = unsettled;
    unsettled = new Map();
    const nowMs = now();
    try {
      const shared = await (store as StorageTimeStore).settle(
        charges,
        nowMs,
        capacity,
        windowMs,
        nowMs - storageTimeActiveMs,
      );
      for (const [accountId, { left, atMs }] of shared) {
        // What this process charged while the store answered is not in its answer: still owed.
        buckets.set(accountId, { left: left - (unsettled.get(accountId) ?? 0), atMs });
        const last = seen.get(accountId);
        if (last === undefined || atMs > last) seen.set(accountId, atMs);
      }
      rivals = null;
      failing = false;
    } catch (error) {
      if (!failing) onSettleError(error);
      failing = true;
      // The store is out of reach (the database is down): the charges wait for the next settle,
      // and each process goes on deciding from its own buckets meanwhile.
      for (const [accountId, ms] of charges) unsettled.set(accountId, (unsettled.get(accountId) ?? 0) + ms);
    }
  }

  function refusal(accountId: string, nowMs: number): number | null {
    const bucket = buckets.get(accountId);
    if (!bucket) return null;
    const left = leftAt(bucket, nowMs);
    if (left > 0 || !contended(accountId, nowMs)) return null;
    // Until the bucket holds something again (sooner if the rivals go quiet).
    return Math.max(1, Math.ceil((-left / refillPerMs + 1) / 1000));
  }

  return {
    admit(accountId, nowMs) {
      markActive(accountId, nowMs);
      return refusal(accountId, nowMs);
    },
    refusal,
    charge(accountId, busyMs, nowMs) {
      if (nowMs >= nextSweep) sweep(nowMs);
      markActive(accountId, nowMs);
      if (!(busyMs > 0)) return;
      const bucket = buckets.get(accountId);
      const before = bucket ? leftAt(bucket, nowMs) : capacity;
      let after = before - busyMs;
      // With no rival waiting, the account owes no one: its bucket goes down to empty, no further.
      if (after < 0 && !contended(accountId, nowMs)) after = Math.max(after, Math.min(before, 0));
      if (!bucket) buckets.set(accountId, { left: after, atMs: nowMs });
      else {
        bucket.left = after;
        bucket.atMs = nowMs;
      }
      if (before > 0 && after <= 0) rivals?.delete(accountId);
      if (store) {
        // What came out of the bucket, so the shared one keeps no debt this one did not.
        unsettled.set(accountId, (unsettled.get(accountId) ?? 0) + (before - after));
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
