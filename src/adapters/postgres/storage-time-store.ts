import type { Pool } from 'pg';
import type { StorageTimeStore } from '../../core/port/index.js';

/** One settle in this many also deletes the buckets that have refilled to full. */
const settlesBetweenSweeps = 1000;

/**
 * The accounts' shares of storage time, one bucket each for every process on the database: a
 * settle refills each named bucket to `nowMs` and takes the process's charge from it, in one
 * upsert. PostgreSQL runs concurrent upserts of one row one after another (the row lock), each on
 * the row the previous one left, so no process's charge is lost; every settle locks its rows in
 * the same order (the accounts' bytes), so two settles naming the same accounts do not deadlock,
 * and the sweep skips rows a settle holds. It runs outside any transaction, on the storage's
 * pool, in one round trip. Times come from the callers' clocks, and a bucket's time never goes
 * back: keep the servers' clocks in step (NTP).
 */
export function postgresStorageTimeStore(
  pool: Pool,
  table: string,
  ready: Promise<unknown>,
  sweepEvery = settlesBetweenSweeps,
): StorageTimeStore {
  const refilled = `least($3::float8, b.left_ms + greatest(0, $2::bigint - b.at_ms) * $3::float8 / $4::float8)`;
  // A new bucket starts full: its row is the share less the charge, which the update reads back
  // as `$3 - excluded.left_ms`.
  // One statement for every account the process charged: Citus routes each row to its
  // account's shard from the coordinator (an INSERT … SELECT), off the request path.
  const settleSql =
    '/* all accounts: one settle carries the charges of each account the process served */ ' +
    `INSERT INTO ${table} AS b (account_id, left_ms, at_ms) ` +
    'SELECT account_id, $3::float8 - charge, $2::bigint FROM unnest($1::text[], $5::float8[]) AS u(account_id, charge) ' +
    'ORDER BY account_id COLLATE "C" ' +
    `ON CONFLICT (account_id) DO UPDATE SET left_ms = ${refilled} - ($3::float8 - excluded.left_ms), ` +
    'at_ms = greatest(b.at_ms, $2::bigint) RETURNING account_id, left_ms';
  const sweepSql =
    '/* all accounts: the sweep of full buckets, maintenance */ ' +
    `DELETE FROM ${table} WHERE account_id IN (SELECT account_id FROM ${table} ` +
    'WHERE left_ms + ($1::bigint - at_ms) * $2::float8 / $3::float8 >= $2::float8 FOR UPDATE SKIP LOCKED)';
  let settles = 0;

  return {
    async settle(charges, nowMs, msPerWindow, windowMs) {
      if (charges.size === 0) return new Map();
      await ready;
      const accounts = [...charges.keys()];
      const { rows } = await pool.query<{ account_id: string; left_ms: number }>(settleSql, [
        accounts,
        Math.floor(nowMs),
        msPerWindow,
        windowMs,
        accounts.map((id) => charges.get(id) ?? 0),
      ]);
      if (++settles % sweepEvery === 0) {
        // Full buckets say nothing a missing one would not; a failed sweep leaves them for the next.
        void pool.query(sweepSql, [Math.floor(nowMs), msPerWindow, windowMs]).catch(() => {});
      }
      return new Map(rows.map((row) => [row.account_id, row.left_ms]));
    },
  };
}
