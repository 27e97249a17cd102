import type { Collection, CollectionName } from './collection.js';
import type { CounterStore } from './counter-store.js';
import type { DeliveryStore } from './delivery-store.js';
import type { DumpStore } from './dump-store.js';
import type { IdempotencyStore } from './idempotency-store.js';
import type { LabelStore } from './label-store.js';
import type { OverdueStore } from './overdue-store.js';
import type { RateLimitStore } from './rate-limit-store.js';
import type { SessionStore } from './session-store.js';
import type { SignalStore } from './signal-store.js';
import type { StorageTimeStore } from './storage-time-store.js';
import type { TenancyStore } from './tenancy-store.js';
import type { TokenStore } from './token-store.js';
import type { WatchStore } from './watch-store.js';
import type { WebhookStore } from './webhook-store.js';

/**
 * The storage port: what every adapter (memory, SQLite, later PostgreSQL) implements.
 * Adapters store and query; they hold no business rules. The conformance suite in
 * `test/conformance` holds every adapter to the contracts documented here.
 */
export interface Storage {
  /**
   * Runs `fn` in one transaction: commits when it resolves, rolls back every write made
   * through `tx` when it throws, and rethrows.
   *
   * Concurrency contract: transactions are serializable. Two transactions never interleave
   * on one connection across an `await`: an adapter with a single connection queues them, so
   * a transaction that reads a row it then writes cannot be overtaken by another one.
   * `mode: 'read'` is a hint that `fn` only reads (a token touch excepted); adapters may run
   * such transactions more cheaply but must keep them consistent.
   *
   * An adapter may run `fn` more than once, each run from the start in a new transaction, before
   * it answers (PostgreSQL after a lost race, SQLite when another member of a group commit failed
   * after writing): only the last run's writes and result count, so `fn` must have no effect
   * outside the transaction.
   */
  transaction<T>(fn: (tx: StorageTx) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /** Releases connections. Transactions started afterwards reject. */
  close(): Promise<void>;
  /**
   * Commits made by other processes sharing the database, for an adapter that has any (the
   * PostgreSQL one): event streams wake on them instead of waiting for their next poll.
   */
  changes?: ChangeSource;
  /**
   * Where the rate limit keeps its admissions, for an adapter whose database several processes
   * share: the tracker uses it unless told otherwise, so every process enforces one limit.
   */
  rateLimits?: RateLimitStore;
  /**
   * Where each account's share of storage time is kept, for an adapter whose database several
   * processes share: the tracker uses it unless told otherwise, so an account gets one share
   * however many processes serve it.
   */
  storageTimes?: StorageTimeStore;
}

export interface TransactionOptions {
  /** See `Storage.transaction`. */
  mode?: 'read' | 'write';
  /**
   * A hint of what the transaction reads right after `tokens.grantOf` (and, in a write
   * transaction, after claiming `claimsKey`): the row `id` of `collection` in the token's
   * workspace, by `getJson` in a read transaction, by `get` in a write one. An adapter with round
   * trips to save may read it in the grant's round trip: in a read transaction of one snapshot
   * with the grant (a revoke committed before the grant's read is seen, and the row is the one of
   * that same moment), in a write one taking the lock `get` takes; the others ignore it. A hint
   * only: `fn` may read anything, and an adapter answers every read as it would without it.
   */
  readsFirst?: RowRead;
  /**
   * A hint for a write transaction: right after `tokens.grantOf`, it claims this Idempotency-Key
   * (`idempotency.get` of the token's workspace). An adapter with round trips to save may claim
   * it in the grant's round trip, and must then give it back at the commit when `fn` never asked
   * for it (a request refused before its key was judged): the key is left as it would be
   * without the hint.
   */
  claimsKey?: string;
}

/** One row of a collection, named by its id (its workspace is the token's). */
export interface RowRead {
  collection: CollectionName;
  id: string;
}

/** Tells a process about commits that appended signals, its own and other processes'. */
export interface ChangeSource {
  /**
   * Calls `listener` with the account of each committed transaction that appended signals (or
   * queued webhook deliveries), soon after the commit. A hint only: a listener may miss some (a lost connection), so readers keep
   * polling too; a rolled-back transaction is never announced. Returns the unsubscribe function.
   */
  subscribe(listener: (accountId: string, change?: ChangeNotice) => void): () => void;
}

/** What a source knows of an announced commit besides its account. */
export interface ChangeNotice {
  /**
   * Whether the commit queued webhook deliveries (inserted some, or made one due): `false` lets
   * the webhook dispatcher sleep on, since no claim could find work the commit made. Absent when
   * the source cannot tell (an older process's notification): the dispatcher wakes.
   */
  deliveriesQueued?: boolean;
}

/** Everything a transaction can touch. */
export interface StorageTx {
  tenancy: TenancyStore;
  tokens: TokenStore;
  collections: { [Name in CollectionName]: Collection<Name> };
  labels: LabelStore;
  overdue: OverdueStore;
  signals: SignalStore;
  idempotency: IdempotencyStore;
  counters: CounterStore;
  webhooks: WebhookStore;
  deliveries: DeliveryStore;
  sessions: SessionStore;
  watches: WatchStore;
  dump: DumpStore;
  /**
   * Milliseconds of the storage's time this run of the transaction has taken so far: what its
   * own statements kept the database (and, where it runs in process, the event loop) or its
   * connection busy with, not the time it waited for its turn (a queue, a pool) before them. The
   * pipeline charges it to the request's account (see storage-time.ts), so it must not count
   * another transaction's statements.
   *
   * Concurrency contract: per transaction; it never decreases, and grows with each statement the
   * transaction runs, whatever runs beside it.
   */
  busyMs(): number;
}
