/**
 * Migration 11: a key's admissions are rows of (key, millisecond, count) instead of one array
 * the key's every request rewrote whole (a request cost grew with the admissions in its window:
 * at a limit of 10^6 one token fell from 463 to 148 requests a second). `rate_limits` keeps a
 * row per key: how many admissions its runs hold, and its newest (for the sweep of idle keys).
 * `rate_limit_take` decides a request in one call, locking the key's row so concurrent takes of
 * one key, from any process, run one after another. Every statement in it is an index lookup of
 * a bounded number of rows, but the deletion of the runs that left the window (each row is
 * deleted once: O(1) amortized per take). UNLOGGED, as before: a crash forgets the counts.
 * Frozen once released.
 */
export const rateLimitRuns = `
CREATE UNLOGGED TABLE rate_limit_runs (
  key text COLLATE "C" NOT NULL,
  at_ms bigint NOT NULL,
  admissions integer NOT NULL,
  PRIMARY KEY (key, at_ms)
);
INSERT INTO rate_limit_runs (key, at_ms, admissions)
  SELECT key, h, count(*) FROM rate_limits, unnest(hits) AS h GROUP BY key, h;
ALTER TABLE rate_limits ADD COLUMN admissions bigint NOT NULL DEFAULT 0;
ALTER TABLE rate_limits ADD COLUMN newest_ms bigint NOT NULL DEFAULT 0;
UPDATE rate_limits SET admissions = cardinality(hits), newest_ms = coalesce(hits[cardinality(hits)], 0);
DROP INDEX rate_limits_newest;
ALTER TABLE rate_limits DROP COLUMN hits;
ALTER TABLE rate_limits DROP COLUMN admitted;
CREATE INDEX rate_limits_newest ON rate_limits (newest_ms);

CREATE FUNCTION rate_limit_take(p_key text, p_now bigint, p_limit bigint, p_window bigint)
RETURNS TABLE (admitted boolean, admissions bigint, oldest_ms bigint)
LANGUAGE plpgsql SET search_path FROM CURRENT AS $fn$
DECLARE
  v_count bigint;
  v_gone bigint;
BEGIN
  -- Creates or locks the key's row (a row swept away meanwhile is made again).
  INSERT INTO rate_limits AS r (key, admissions, newest_ms) VALUES (p_key, 0, p_now)
    ON CONFLICT (key) DO UPDATE SET key = r.key
    RETURNING r.admissions INTO v_count;
  WITH gone AS (
    DELETE FROM rate_limit_runs g WHERE g.key = p_key AND g.at_ms <= p_now - p_window
    RETURNING g.admissions
  )
  SELECT coalesce(sum(gone.admissions), 0) INTO v_gone FROM gone;
  v_count := v_count - v_gone;
  admitted := v_count < p_limit;
  IF admitted THEN
    INSERT INTO rate_limit_runs AS u (key, at_ms, admissions) VALUES (p_key, p_now, 1)
      ON CONFLICT (key, at_ms) DO UPDATE SET admissions = u.admissions + 1;
    v_count := v_count + 1;
  END IF;
  UPDATE rate_limits r SET admissions = v_count,
    newest_ms = CASE WHEN admitted THEN greatest(r.newest_ms, p_now) ELSE r.newest_ms END
    WHERE r.key = p_key;
  admissions := v_count;
  SELECT o.at_ms INTO oldest_ms FROM rate_limit_runs o WHERE o.key = p_key ORDER BY o.at_ms LIMIT 1;
  RETURN NEXT;
END
$fn$;
`;
