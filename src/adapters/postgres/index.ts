import pg from 'pg';
import type { RateLimitStore, Storage, StorageTimeStore, StorageTx } from '../../core/port/index.js';
import { eachCollection } from '../shared/collection-table.js';
import { AccountRoutes } from './account-routes.js';
import { postgresCollection } from './collections.js';
import type { Conn } from './connection.js';
import { isDistributed } from './distribute.js';
import { postgresDump } from './dump.js';
import { postgresLabels } from './labels.js';
import { migrate } from './migrate.js';
import {
  batchedNotifier,
  changeListener,
  channelOf,
  newOrigin,
  notifyParams,
  notifySql,
} from './notifications.js';
import { postgresOverdue } from './overdue.js';
import { postgresRateLimitStore } from './rate-limit-store.js';
import { postgresCounters, postgresIdempotency } from './records.js';
import { postgresSessions } from './sessions.js';
import { postgresSignals } from './signals.js';
import { quoteIdent } from './sql.js';
import { postgresStorageTimeStore } from './storage-time-store.js';
import { postgresTenancy, postgresTokens } from './tenancy.js';
import { type TxObserver, transactionRunner } from './transaction.js';
import { types } from './types.js';
import { postgresWatches } from './watches.js';
import { postgresDeliveries, postgresWebhooks } from './webhooks.js';

export { SchemaTooNew } from './migrate.js';

export type PostgresStorageOptions = (
  | {
      /** A `postgres://` URL; the storage makes and owns a pool of connections to it. */
      connectionString: string;
      pool?: undefined;
    }
  | {
      /** A pool you made and own: close() leaves it open. */
      pool: pg.Pool;
      connectionString?: undefined;
    }
) & {
  /** The schema holding the tables, created when missing; default `public`. */
  schema?: string;
  /** Connections in the pool the storage makes (not with `pool`); default 10. */
  poolMax?: number;
  /**
   * How many times a transaction that lost a race (a deadlock) runs in all before
   * TransientConflict; default 20.
   */
  maxAttempts?: number;
  /**
   * On a Citus coordinator, whether a schema this storage creates is distributed by account
   * (docs/scaling.md); default true. A schema distributed already stays so at every upgrade.
   */
  distribute?: boolean;
};

/** A storage on PostgreSQL: the port, and what only a shared database can say. */
export interface PostgresStorage extends Storage {
  /**
   * Settles once the schema is ready (migrations run when the storage is made); rejects with
   * the reason it cannot be (SchemaTooNew, an unreachable server). `created`: this storage
   * created the schema (applied the first migration), so it is the one to bootstrap it.
   */
  ready(): Promise<{ created: boolean }>;
  /** The rate limit every process on the database shares (the tracker uses it by default). */
  rateLimits: RateLimitStore;
  /** The accounts' shares of storage time every process on the database settles with (idem). */
  storageTimes: StorageTimeStore;
  /** How many times this storage has run a transaction again (after a deadlock), since it was made. */
  reruns(): number;
}

function postgresTx(conn: Conn, observer: TxObserver): StorageTx {
  return {
    tenancy: postgresTenancy(conn),
    tokens: postgresTokens(conn),
    collections: eachCollection((name) => postgresCollection(name, conn)) as StorageTx['collections'],
    labels: postgresLabels(conn),
    overdue: postgresOverdue(conn),
    signals: postgresSignals(conn, observer.appended),
    idempotency: postgresIdempotency(conn),
    counters: postgresCounters(conn),
    webhooks: postgresWebhooks(conn),
    deliveries: postgresDeliveries(conn, observer.queued),
    sessions: postgresSessions(conn),
    watches: postgresWatches(conn),
    dump: postgresDump(conn),
    busyMs: () => conn.busyMs(),
  };
}

/**
 * PostgreSQL storage over a pool of connections (node-postgres). Transactions run concurrently,
 * each on its own connection, write ones READ COMMITTED with explicit locks (see the lock audit
 * in transaction.ts); every guarantee holds across all the processes that share the database.
 * The schema is migrated when the storage is made; transactions wait for that.
 */
export function postgresStorage(options: PostgresStorageOptions): PostgresStorage {
  const schema = options.schema ?? 'public';
  const ownsPool = options.pool === undefined;
  const pool =
    options.pool ??
    new pg.Pool({
      connectionString: options.connectionString,
      max: options.poolMax ?? 10,
      types,
      // Statements a store knows ahead go in one round trip (Conn.batch).
      pipeline: true,
    } as pg.PoolConfig);
  // A connection that breaks while idle in the pool must not crash the process.
  const onIdleError = () => {};
  if (ownsPool) pool.on('error', onIdleError);

  const channel = channelOf(schema);
  const origin = newOrigin();
  const changes = changeListener(channel, origin, async () => {
    if (ownsPool) {
      const client = new pg.Client({ connectionString: options.connectionString, types });
      await client.connect();
      return { client, done: () => void client.end().catch(() => {}) };
    }
    // The embedder's parsers do no harm here: the listener reads notifications' payloads (text),
    // never a query's rows.
    const client = await pool.connect();
    return { client, done: (error) => client.release(error ?? true) };
  });

  // Whether the schema is distributed by account (Citus), read once it is migrated: statements
  // are then prepared per account (account-bound.ts).
  let distributed = false;
  const migrated = migrate(pool, schema, undefined, { distribute: options.distribute }).then(
    async (applied) => {
      // A speed-up only: a database that cannot say leaves statements as they are.
      distributed = await isDistributed(pool, schema).catch(() => false);
      return { created: applied.some((m) => m.version === 1) };
    },
  );
  // Reported through ready() and every transaction; not an unhandled rejection meanwhile.
  migrated.catch(() => {});

  const notifier = batchedNotifier((accounts) =>
    pool.query(notifySql, [channel, origin, ...notifyParams(accounts)]),
  );
  let reruns = 0;
  const runner = transactionRunner({
    pool,
    // With the search_path, once per connection: on a Citus cluster, statements that span shards
    // use one connection per node, so that a transaction may read a distributed table and then
    // write a reference one (Citus refuses that after a parallel read); a name without effect elsewhere.
    // No parallel plans: a statement of one request never starts worker processes. Starting them
    // costs more than the statements of a page gain (a rare label's page at a million issues:
    // 24-70 ms with a parallel scan of the label index's table, 4-10 ms without), and a request
    // that took three processes would take them from the other accounts' requests.
    searchPathSql: `SET search_path TO ${quoteIdent(schema)}; SET citus.multi_shard_modify_mode TO 'sequential'; SET max_parallel_workers_per_gather TO 0`,
    // Workspace → account, for every transaction of this storage (a workspace never moves).
    routes: new AccountRoutes(),
    distributed: () => distributed,
    maxAttempts: Math.max(1, options.maxAttempts ?? 20),
    makeTx: postgresTx,
    committed: (accounts) => notifier.add(accounts),
    reran: () => {
      reruns++;
    },
  });

  let closed = false;
  const running = new Set<Promise<unknown>>();

  return {
    ready: () => migrated,
    rateLimits: postgresRateLimitStore(pool, schema, migrated),
    storageTimes: postgresStorageTimeStore(pool, `${quoteIdent(schema)}.storage_time_shares`, migrated),
    changes: { subscribe: (listener) => changes.subscribe(listener) },
    reruns: () => reruns,
    async transaction(fn, transactionOptions) {
      if (closed) throw new Error('storage is closed');
      await migrated;
      const run = runner.run(fn, transactionOptions?.mode ?? 'write', transactionOptions);
      running.add(run);
      try {
        return await run;
      } finally {
        running.delete(run);
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await changes.close();
      // Transactions started before close() finish; the pool closes after them.
      await Promise.allSettled([...running, migrated]);
      await notifier.flushed();
      if (ownsPool) {
        await pool.end();
        pool.off('error', onIdleError);
      }
    },
  };
}
