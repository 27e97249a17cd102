import type { Pool } from 'pg';
import { decision, type RateLimitStore } from '../../core/pipeline/rate-limit.js';

/** About one take in this many also deletes the rows of keys idle for a whole window. */
const sweepEvery = 1000;

/**
 * The rate limit shared by every process on the database: one row per key holding the times of
 * its admissions inside the window (at most `limit` of them), changed by one upsert that drops
 * the times a window old, admits when fewer than `limit` are left, and appends the new time.
 * PostgreSQL runs concurrent upserts of one key one after another (the row lock), each on the
 * row the previous one left, so every process together admits at most `limit` requests of a key
 * in any window. It runs outside any transaction, on the storage's pool, in one round trip.
 * Times come from the callers' clocks: keep the servers' clocks in step (NTP).
 */
export function postgresRateLimitStore(pool: Pool, table: string, ready: Promise<unknown>): RateLimitStore {
  const kept = `(SELECT h FROM unnest(r.hits) AS h WHERE h > $2::bigint - $4::bigint ORDER BY h)`;
  const fits = `(SELECT count(*) FROM unnest(r.hits) AS h WHERE h > $2::bigint - $4::bigint) < $3`;
  const takeSql =
    `INSERT INTO ${table} AS r (key, hits, admitted) VALUES ($1, ARRAY[$2::bigint], true) ` +
    `ON CONFLICT (key) DO UPDATE SET admitted = ${fits}, ` +
    `hits = ARRAY${kept} || CASE WHEN ${fits} THEN ARRAY[$2::bigint] ELSE '{}'::bigint[] END ` +
    'RETURNING admitted, hits';
  const sweepSql = `DELETE FROM ${table} WHERE hits[cardinality(hits)] <= $1::bigint - $2::bigint`;
  let takes = 0;

  return {
    async take(key, nowMs, limit, windowMs) {
      await ready;
      const { rows } = await pool.query<{ admitted: boolean; hits: number[] }>(takeSql, [
        key,
        Math.floor(nowMs),
        limit,
        Math.ceil(windowMs),
      ]);
      const row = rows[0];
      if (!row) throw new Error('rate limit upsert returned no row');
      if (++takes % sweepEvery === 0) {
        // Idle keys cost a row each until swept; a failed sweep only leaves them for the next.
        void pool.query(sweepSql, [Math.floor(nowMs), Math.ceil(windowMs)]).catch(() => {});
      }
      return decision(row.admitted, row.hits.length, row.hits[0] ?? nowMs, nowMs, limit, windowMs);
    },
  };
}
