import type { Pool } from 'pg';
import type { SharedBucket, StorageTimeStore } from '../../core/port/index.js';

interface Row {
  left_ms: number;
  /** A bigint: a string from the driver. */
  at_ms: string | number;
}

const bucketOf = (row: Row): SharedBucket => ({ left: row.left_ms, atMs: Number(row.at_ms) });

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
 * using the storage. It runs outside any transaction, on one connection of the storage's pool,
 * once a second per process, off the request path. A settle that fails part-way has taken the
 * charges before the failure, and the process sends them all again: a database failing
 * mid-settle may charge its accounts up to a second's spending twice, never lose it. Times come from the callers' clocks, and a bucket's time never
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
  const sweepSql =
    '/* all accounts: the sweep of full buckets, maintenance */ ' +
    `DELETE FROM ${table} WHERE account_id IN (SELECT account_id FROM ${table} ` +
    'WHERE at_ms < $4::bigint AND left_ms + ($1::bigint - at_ms) * $2::float8 / $3::float8 >= $2::float8 ' +
    'FOR UPDATE SKIP LOCKED)';
  let settles = 0;

  return {
    async settle(charges, nowMs, msPerWindow, windowMs, activeSinceMs) {
      await ready;
      const atMs = Math.floor(nowMs);
      const since = Math.floor(activeSinceMs);
      const found = new Map<string, SharedBucket>();
      const client = await pool.connect();
      try {
        // Each charged bucket as its own charge left it; the others as last settled.
        for (const [accountId, charge] of charges) {
          const { rows } = await client.query<Row>(chargeSql, [
            accountId,
            atMs,
            msPerWindow,
            windowMs,
            charge,
          ]);
          for (const row of rows) found.set(accountId, bucketOf(row));
        }
        const { rows } = await client.query<Row & { account_id: string }>(activeSql, [since]);
        for (const row of rows) if (!charges.has(row.account_id)) found.set(row.account_id, bucketOf(row));
      } finally {
        client.release();
      }
      if (++settles % sweepEvery === 0) {
        // Full buckets of quiet accounts say nothing a missing one would not; a failed sweep
        // leaves them for the next.
        void pool.query(sweepSql, [atMs, msPerWindow, windowMs, since]).catch(() => {});
      }
      return found;
    },
  };
}
