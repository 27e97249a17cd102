import type { Storage, StorageTx } from '../../core/port/index.js';
import { eachCollection } from '../shared/collection-table.js';
import { type Checkpointing, storageCheckpoints } from './engine/checkpoints.js';
import { openDatabase, transactionConn } from './engine/connection.js';
import { commutesWithBookkeeping, DeferredBookkeeping } from './engine/deferred-bookkeeping.js';
import { ReadCache } from './engine/read-cache.js';
import { StatementCache } from './engine/statement-cache.js';
import { statementEffects } from './engine/statement-effects.js';
import { transactionQueue } from './engine/transaction-queue.js';
import type { Conn } from './engine/types.js';
import { migrate } from './migrate.js';
import { sqliteCollection } from './stores/collections.js';
import { sqliteDump } from './stores/dump.js';
import { sqliteLabels } from './stores/labels.js';
import { sqliteOverdue } from './stores/overdue.js';
import { sqliteCounters, sqliteIdempotency } from './stores/records.js';
import { searchIndexWriter } from './stores/search-index.js';
import { sqliteSessions } from './stores/sessions.js';
import { sqliteSignals } from './stores/signals.js';
import { sqliteTenancy, sqliteTokens } from './stores/tenancy.js';
import { sqliteWatches } from './stores/watches.js';
import { sqliteDeliveries, sqliteWebhooks } from './stores/webhooks.js';

export { SchemaTooNew } from '../shared/schema-too-new.js';

export interface SqliteStorageOptions {
  /** The database file (created when missing), or ':memory:'. */
  filename: string;
  /** Told every statement run, with its parameters in place (diagnostics and query-plan tests). */
  onStatement?: (sql: string) => void;
  /**
   * How many pages the write-ahead log may hold before they are copied into the database file
   * (default 8,000: 32 MB of 4 KB pages). Once the storage has written a little, the copy runs
   * on a worker thread of the adapter, off the event loop (see engine/checkpoints.ts); should the thread
   * fall behind, the COMMIT that takes the log to twice this copies the rest, as SQLite does.
   */
  checkpointPages?: number;
}

export type { Checkpointing } from './engine/checkpoints.js';

/** The SQLite storage: the port, and what the adapter can tell about itself. */
export interface SqliteStorage extends Storage {
  /** How many prepared statements the connection keeps (bounded by the statement cache). */
  statementCount(): number;
  /** Where checkpoints run now (diagnostics and tests). */
  checkpointing(): Checkpointing;
  /**
   * This storage created the schema (applied the first migration): of several processes opening
   * one fresh file at once, exactly one sees true, so it is the one to bootstrap it.
   */
  readonly created: boolean;
}

function sqliteTx(conn: Conn, writePendingSearch: () => void): StorageTx {
  return {
    tenancy: sqliteTenancy(conn),
    tokens: sqliteTokens(conn),
    collections: eachCollection((name) =>
      sqliteCollection(name, conn, writePendingSearch),
    ) as StorageTx['collections'],
    labels: sqliteLabels(conn),
    overdue: sqliteOverdue(conn),
    signals: sqliteSignals(conn),
    idempotency: sqliteIdempotency(conn),
    counters: sqliteCounters(conn),
    webhooks: sqliteWebhooks(conn),
    deliveries: sqliteDeliveries(conn),
    sessions: sqliteSessions(conn),
    watches: sqliteWatches(conn),
    dump: sqliteDump(conn),
    busyMs: () => conn.busyMs(),
  };
}

/**
 * How many pages the WAL holds before the COMMIT that passes them copies them into the database
 * (a checkpoint), unless `checkpointPages` says otherwise. A page changed by many commits between
 * two checkpoints is copied once, and the pages every create changes (the ends of the indexes,
 * the counts) are most of them: at 8,000 pages (32 MB of WAL) rather than SQLite's 1,000 a create
 * costs about a tenth less CPU.
 */
const defaultCheckpointPages = 8000;

/** How many write COMMITs the noted search-index rows may wait for before they are written. */
const searchIndexEveryCommits = 8;

/**
 * SQLite storage over one better-sqlite3 connection (WAL). The port is async and
 * better-sqlite3 is not, so transactions are explicit BEGIN … COMMIT pairs, queued so that two
 * never interleave on the connection across an `await`, and writes queued together share one
 * COMMIT (see engine/transaction-queue.ts). Write transactions take the write lock up front (BEGIN
 * IMMEDIATE), so another process on the same file waits (busy_timeout) instead of failing
 * half-way.
 */
export function sqliteStorage(options: SqliteStorageOptions): SqliteStorage {
  const pages = options.checkpointPages ?? defaultCheckpointPages;
  if (!Number.isSafeInteger(pages) || pages < 1) {
    throw new RangeError(`checkpointPages must be a positive whole number of pages, not ${pages}`);
  }
  const db = openDatabase(options.filename, options.onStatement);
  const checkpoints = storageCheckpoints(db, pages);
  let created: boolean;
  try {
    created = migrate(db).some((migration) => migration.version === 1);
  } catch (error) {
    db.close();
    throw error;
  }
  const bookkeeping = new DeferredBookkeeping(db);
  const reads = new ReadCache();
  const effectOf = statementEffects(db);
  const cache = new StatementCache(db, undefined, (sql, statement) => {
    const effect = effectOf(sql, statement);
    return { effect, commutes: commutesWithBookkeeping(sql, effect) };
  });
  const writePendingSearch = searchIndexWriter(db, bookkeeping);
  let groupsSinceIndexing = 0;
  const queue = transactionQueue(db, {
    beforeCommit: () => {
      bookkeeping.flush();
      checkpoints.wrote();
      // The search index is written every few write COMMITs, not at each: FTS5 makes a segment
      // (and, now and then, merges segments) per write, and larger batches cost far less a row.
      // The noted rows wait durably in search_pending, and a search writes them first.
      if (++groupsSinceIndexing < searchIndexEveryCommits) return;
      groupsSinceIndexing = 0;
      writePendingSearch();
    },
    beforeRelease: () => bookkeeping.flush(),
    afterRollback: () => {
      bookkeeping.discard();
      reads.clear();
    },
    afterBegin: () => reads.clear(),
    beforeWriteGroup: () => checkpoints.beforeWriteGroup(),
  });
  let closed = false;

  return {
    statementCount: () => cache.size,
    checkpointing: () => checkpoints.checkpointing(),
    created,
    transaction(fn, transactionOptions) {
      if (closed) return Promise.reject(new Error('storage is closed'));
      return queue.run(
        (access) =>
          fn(
            sqliteTx(transactionConn(cache, access, bookkeeping, reads), () => {
              if (!access.isOpen()) throw new Error('transaction already finished');
              writePendingSearch(() => {
                access.beforeWrite();
                access.wrote(1);
              });
            }),
          ),
        transactionOptions?.mode ?? 'write',
      );
    },
    async close() {
      closed = true;
      // Transactions queued before close() still run; the connection closes after them.
      await queue.drained();
      // The thread's connection closes first, so that this one is the last: closing, it copies
      // what is left of the log into the database and removes the log.
      await checkpoints.close();
      if (db.open) db.close();
    },
  };
}
