import type { Pool } from 'pg';
import { decision, type RateLimitStore, StorageUnavailable } from '../../core/port/index.js';
import { spanningPoolQuery } from './connection.js';
import { isUnavailable } from './errors.js';
import { quoteIdent } from './sql.js';
import { typed } from './types.js';

/** About one database take in this many also deletes the rows of keys idle for a whole window. */
const sweepEvery = 1000;
/** An allowance holds at most this many admissions, and at most a 64th of the limit. */
const largestAllowance = 64;
/** An allowance is spent within this long (and a 60th of the window), or dropped. */
const allowanceMs = 1000;
/** Keys with an allowance kept at most, per process: beyond, a key takes one admission at a time. */
const keptKeys = 10_000;

/** Admissions a process took from the database for a key and has not spent yet. */
interface Allowance {
  /** Admissions left to spend. */
  left: number;
  /** When they were taken: they are spent before `takenAt + spendWithinMs`, or dropped. */
  takenAt: number;
  /** How many the next take asks for. */
  size: number;
  /** The key's admissions in the window right after the take (the allowance included). */
  admissions: number;
  oldestMs: number;
  /** A take of the database in flight for the key: concurrent requests wait for it. */
  taking: Promise<void> | null;
}

/**
 * The rate limit shared by every process on the database. The database keeps a key's admissions
 * as rows of (millisecond, count), and `rate_limit_take_many` (migration 22) admits up to a
 * number of requests in one call: it locks the key's row (so concurrent takes of a key, from
 * every process, run one after another), deletes the runs that left the window, admits as many
 * as the window still holds, and reads the oldest run for the headers. Its cost does not grow
 * with the admissions in the window.
 *
 * A process takes an allowance per key and spends it locally, so that a busy token pays one call
 * (five writes) per allowance, not per request. An allowance starts at one admission, doubles
 * each time one is spent whole in time, and holds at most min(64, limit / 64) admissions (a
 * limit under 128 is decided request by request, exactly); it is spent within
 * min(1 s, window / 60) or dropped. The bound, with N processes on the database: in any window,
 * a key is admitted at most `limit + N × min(64, limit / 64)` times (an admission is counted from
 * its allowance's take, at most that long before it is spent, and each process holds one
 * allowance per key at a time), and it may be refused while up to that many of its admissions
 * are taken but unspent (dropped allowances count until they leave the window). With the
 * default limit of 100 it is exact. It runs outside any transaction, on the storage's pool, in
 * one round trip. Times come from the callers' clocks: keep the servers' clocks in step (NTP).
 */
export function postgresRateLimitStore(pool: Pool, schema: string, ready: Promise<unknown>): RateLimitStore {
  const qualified = quoteIdent(schema);
  const takeSql = `SELECT admitted, admissions, oldest_ms FROM ${qualified}.rate_limit_take_many($1, $2, $3, $4, $5)`;
  // Statements name the key (`rate_limit_take_many` looks up its key only), but the sweep of
  // idle keys, which spans them: maintenance, on the coordinator.
  const sweepSql =
    '/* all accounts: the sweep of idle rate-limit keys, maintenance */ ' +
    `WITH idle AS (DELETE FROM ${qualified}.rate_limits WHERE newest_ms <= $1::bigint - $2::bigint RETURNING key) ` +
    `DELETE FROM ${qualified}.rate_limit_runs r USING idle WHERE r.key = idle.key`;
  let takes = 0;
  const allowances = new Map<string, Allowance>();

  /** Takes up to `want` admissions of the database; `at` in whole milliseconds. */
  async function takeMany(key: string, at: number, limit: number, windowMs: number, want: number) {
    await ready;
    const { rows } = await pool
      .query<{ admitted: number; admissions: number; oldest_ms: number | null }>(
        typed({ text: takeSql, values: [key, at, limit, Math.ceil(windowMs), want] }),
      )
      .catch((error: unknown) => {
        // The database, or the Citus worker holding the key's rows, does not answer: 503, not 500.
        throw isUnavailable(error) ? new StorageUnavailable({ cause: error }) : error;
      });
    const row = rows[0];
    if (!row) throw new Error('rate_limit_take_many returned no row');
    if (++takes % sweepEvery === 0) {
      // Idle keys cost a row each until swept; a failed sweep only leaves them for the next.
      void spanningPoolQuery(pool, sweepSql, [at, Math.ceil(windowMs)]).catch(() => {});
    }
    return {
      admitted: row.admitted,
      admissions: row.admissions,
      oldestMs: row.oldest_ms ?? at,
    };
  }

  /** Drops the allowances past their time, when the map is full. */
  function prune(now: number, spendWithinMs: number): void {
    for (const [key, allowance] of allowances) {
      if (allowance.taking === null && now - allowance.takenAt >= spendWithinMs) allowances.delete(key);
    }
  }

  return {
    async take(key, nowMs, limit, windowMs) {
      // Whole milliseconds, rounded up (as the memory store): never early out of the window.
      const at = Math.ceil(nowMs);
      const most = Math.min(largestAllowance, Math.floor(limit / 64));
      if (most <= 1) {
        const taken = await takeMany(key, at, limit, windowMs, 1);
        return decision(taken.admitted > 0, taken.admissions, taken.oldestMs, at, limit, windowMs);
      }
      const spendWithinMs = Math.min(allowanceMs, windowMs / 60);
      for (;;) {
        let allowance = allowances.get(key);
        if (allowance?.taking) {
          await allowance.taking;
          continue;
        }
        const fresh = allowance !== undefined && at - allowance.takenAt < spendWithinMs;
        if (allowance !== undefined && fresh && allowance.left > 0) {
          allowance.left--;
          const spent = allowance.admissions - allowance.left;
          return decision(true, spent, allowance.oldestMs, at, limit, windowMs);
        }
        if (allowance === undefined) {
          if (allowances.size >= keptKeys) prune(at, spendWithinMs);
          if (allowances.size >= keptKeys) {
            const taken = await takeMany(key, at, limit, windowMs, 1);
            return decision(taken.admitted > 0, taken.admissions, taken.oldestMs, at, limit, windowMs);
          }
          allowance = { left: 0, takenAt: at, size: 1, admissions: 0, oldestMs: at, taking: null };
          allowances.set(key, allowance);
        } else if (fresh) {
          // Spent whole in time: the next is twice as large.
          allowance.size = Math.min(most, allowance.size * 2);
        } else {
          // Dropped with some unspent: the next is what was spent of it.
          allowance.size = Math.max(1, Math.min(most, allowance.size - allowance.left));
        }
        const current = allowance;
        const want = current.size;
        let result: Awaited<ReturnType<typeof takeMany>> | undefined;
        let failure: unknown;
        current.taking = takeMany(key, at, limit, windowMs, want).then(
          (taken) => {
            result = taken;
            current.left = taken.admitted;
            current.takenAt = at;
            current.admissions = taken.admissions;
            current.oldestMs = taken.oldestMs;
          },
          (error: unknown) => {
            failure = error;
          },
        );
        try {
          await current.taking;
        } finally {
          current.taking = null;
        }
        if (result === undefined) {
          // The request fails as the store's call did; the key's next request takes afresh.
          allowances.delete(key);
          throw failure;
        }
        if (result.admitted === 0) {
          return decision(false, result.admissions, result.oldestMs, at, limit, windowMs);
        }
        current.left--;
        return decision(true, current.admissions - current.left, current.oldestMs, at, limit, windowMs);
      }
    },
  };
}
