/**
 * Migration 22: `rate_limit_take_many` admits up to `p_want` requests of a key in one call (as
 * many as its window still holds), recorded as one run at `p_now`: a process takes an allowance
 * of several admissions at once and spends it locally (rate-limit-store.ts), instead of a call
 * with five writes for every request. With `p_want` 1 it decides as `rate_limit_take` does.
 * Frozen once released.
 */
export const rateLimitAllowances = `
CREATE FUNCTION rate_limit_take_many(p_key text, p_now bigint, p_limit bigint, p_window bigint, p_want bigint)
RETURNS TABLE (admitted bigint, admissions bigint, oldest_ms bigint)
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
  admitted := greatest(0, least(p_want, p_limit - v_count));
  IF admitted > 0 THEN
    INSERT INTO rate_limit_runs AS u (key, at_ms, admissions) VALUES (p_key, p_now, admitted)
      ON CONFLICT (key, at_ms) DO UPDATE SET admissions = u.admissions + excluded.admissions;
    v_count := v_count + admitted;
  END IF;
  UPDATE rate_limits r SET admissions = v_count,
    newest_ms = CASE WHEN admitted > 0 THEN greatest(r.newest_ms, p_now) ELSE r.newest_ms END
    WHERE r.key = p_key;
  admissions := v_count;
  SELECT o.at_ms INTO oldest_ms FROM rate_limit_runs o WHERE o.key = p_key ORDER BY o.at_ms LIMIT 1;
  RETURN NEXT;
END
$fn$;
`;
