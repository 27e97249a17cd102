import type { Pool } from 'pg';
import { decision, type RateLimitStore } from '../../core/port/index.js';
import { quoteIdent } from './sql.js';

/** About one take in this many also deletes the rows of keys idle for a whole window. */
const sweepEvery = 1000;

/**
 * The rate limit shared by every process on the database, exact over a rolling window: a key's
 * admissions are rows of (millisecond, count), and `rate_limit_take` (migration 11) decides one
 * request in one call: it locks the key's row (so concurrent takes of a key, from every process,
 * run one after another), deletes the runs that left the window, admits when fewer than `limit`
 * admissions are left, and reads the oldest run for the headers. Its cost per request does not
 * grow with the admissions in the window: a bounded number of index lookups, plus the deletion of
 * the runs that left (each deleted once: O(1) amortized). Rows per key: at most
 * min(limit, windowMs) runs. It runs outside any transaction, on the storage's pool, in one round
 * trip. Times come from the callers' clocks: keep the servers' clocks in step (NTP).
 */
export function postgresRateLimitStore(pool: Pool, schema: string, ready: Promise<unknown>): RateLimitStore {
  const qualified = quoteIdent(schema);
  const takeSql = `SELECT admitted, admissions, oldest_ms FROM ${qualified}.rate_limit_take($1, $2, $3, $4)`;
  // Statements name the key (`rate_limit_take` looks up its key only), but the sweep of idle
  // keys, which spans them: maintenance, on the coordinator.
  const sweepSql =
    '/* all accounts: the sweep of idle rate-limit keys, maintenance */ ' +
    `WITH idle AS (DELETE FROM ${qualified}.rate_limits WHERE newest_ms <= $1::bigint - $2::bigint RETURNING key) ` +
    `DELETE FROM ${qualified}.rate_limit_runs r USING idle WHERE r.key = idle.key`;
  let takes = 0;

  return {
    async take(key, nowMs, limit, windowMs) {
      await ready;
      // Whole milliseconds, rounded up (as the memory store): never early out of the window.
      const at = Math.ceil(nowMs);
      const { rows } = await pool.query<{ admitted: boolean; admissions: string; oldest_ms: string | null }>(
        takeSql,
        [key, at, limit, Math.ceil(windowMs)],
      );
      const row = rows[0];
      if (!row) throw new Error('rate_limit_take returned no row');
      if (++takes % sweepEvery === 0) {
        // Idle keys cost a row each until swept; a failed sweep only leaves them for the next.
        void pool.query(sweepSql, [at, Math.ceil(windowMs)]).catch(() => {});
      }
      const oldest = row.oldest_ms === null ? at : Number(row.oldest_ms);
      return decision(row.admitted, Number(row.admissions), oldest, at, limit, windowMs);
    },
  };
}
