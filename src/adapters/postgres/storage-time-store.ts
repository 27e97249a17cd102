import type { Pool } from 'pg';
import type { SharedBucket, StorageTimeStore } from '../../core/port/index.js';
import { spanningPoolQuery, spanningQuery } from './connection.js';
import { typed } from './types.js';

interface Row {
  left_ms: number;
  /** A bigint, a number by the adapter's parsers (types.ts). */
  at_ms: number;
}

const bucketOf = (row: Row): SharedBucket => ({ left: row.left_ms, atMs: row.at_ms });

/** One settle in this many also deletes the buckets that have refilled to full. */
const settlesBetweenSweeps = 1000;

/**
 * The accounts' shares of storage time, one bucket each for every process on the database. A
 * settle takes each account's charge in a statement of its own, which names the account (so a
 * distributed database routes it to the account's shard, as every statement of a request): an
 * upsert that refills the bucket to `nowMs` and takes the charge from it. PostgreSQL runs
 * concurrent upserts of one row one after another (the row lock), each on the row the previous
 * one left, so no process's charge is lost; each locks one row and commits at once, so settles
 * never deadlock. Then one read of the buckets settled lately, by any process, tells who else is
 * using the storage. It runs outside any transaction, on one connection of the storage's pool
 * (in one round trip where the pool pipelines), once a second per process, off the request path;
 * the read, which spans accounts, in a transaction of its own (spanningQuery).
 * A settle that fails part-way has taken the charges before the failure, and the process sends
 * them all again: a database failing mid-settle may charge its accounts up to a second's
 * spending twice, never lose it. Times come from the callers' clocks, and a bucket's time never
 * goes back: keep the servers' clocks in step (NTP).
 */
export function postgresStorageTimeStore(
  pool: Pool,
  table: string,
  ready: Promise<unknown>,
  sweepEvery = settlesBetweenSweeps,
): StorageTimeStore {
  const refilled =
    'least($3::float8, b.left_ms + greatest(0, $2::bigint - b.at_ms) * $3::float8 / $4::float8)';
  // A new bucket starts full: its row is the share less the charge.
  const chargeSql =
    `INSERT INTO ${table} AS b (account_id, left_ms, at_ms) VALUES ($1::text, $3::float8 - $5::float8, $2::bigint) ` +
    `ON CONFLICT (account_id) DO UPDATE SET left_ms = ${refilled} - $5::float8, at_ms = greatest(b.at_ms, $2::bigint) ` +
    'RETURNING left_ms, at_ms';
  const activeSql =
    '/* all accounts: who else uses the storage, read with each settle */ ' +
    `SELECT account_id, left_ms, at_ms FROM ${table} WHERE at_ms >= $1::bigint`;
  // A plain DELETE: it waits for a settle holding a row (one row, committed at once, so no cycle
  // of waits), then sees the row as the settle left it, settled lately, and keeps it. (Citus runs
  // no FOR UPDATE across shards.)
  const sweepSql =
    '/* all accounts: the sweep of full buckets, maintenance */ ' +
    `DELETE FROM ${table} WHERE at_ms < $4::bigint ` +
    'AND left_ms + ($1::bigint - at_ms) * $2::float8 / $3::float8 >= $2::float8';
  let settles = 0;

  return {
    async settle(charges, nowMs, msPerWindow, windowMs, activeSinceMs) {
      await ready;
      const atMs = Math.floor(nowMs);
      const since = Math.floor(activeSinceMs);
      const found = new Map<string, SharedBucket>();
      const client = await pool.connect();
      // A connection lost while held is an 'error' event the pool does not hear then (see
      // transaction.ts): kept here, and the client destroyed rather than reused.
      let lost: Error | undefined;
      const onLost = (error: Error) => {
        lost ??= error;
      };
      client.on('error', onLost);
      try {
        // Sent together: on a pipelining pool all in one round trip, each still committed alone.
        const charged = [...charges].map(([accountId, charge]) =>
          client.query<Row>(
            typed({ text: chargeSql, values: [accountId, atMs, msPerWindow, windowMs, charge] }),
          ),
        );
        const active = spanningQuery<Row & { account_id: string }>(client, activeSql, [since]);
        const settled = await Promise.allSettled([...charged, active]);
        const failed = settled.find((result) => result.status === 'rejected');
        if (failed) throw failed.reason;
        // Each charged bucket as its own charge left it; the others as last settled.
        for (const [i, accountId] of [...charges.keys()].entries()) {
          const row = (await charged[i])?.rows[0];
          if (row) found.set(accountId, bucketOf(row));
        }
        for (const row of (await active).rows) {
          if (!charges.has(row.account_id)) found.set(row.account_id, bucketOf(row));
        }
      } finally {
        client.off('error', onLost);
        client.release(lost);
      }
      if (++settles % sweepEvery === 0) {
        // Full buckets of quiet accounts say nothing a missing one would not; a failed sweep
        // leaves them for the next.
        void spanningPoolQuery(pool, sweepSql, [atMs, msPerWindow, windowMs, since]).catch(() => {});
      }
      return found;
    },
  };
}
