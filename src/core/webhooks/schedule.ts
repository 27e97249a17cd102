/**
 * When a failed delivery is tried again: about 1 m, 5 m, 30 m, 2 h, 6 h, 12 h and 24 h after the
 * attempts before, with ±10 % jitter so that receivers coming back from an outage are not hit
 * by every retry at once. The eighth failed attempt is the last.
 */
const minute = 60_000;
export const retryDelaysMs = [1, 5, 30, 120, 360, 720, 1440].map((m) => m * minute);
export const maxAttempts = retryDelaysMs.length + 1;

/** A subscription whose deliveries have failed for this long without a success is disabled. */
export const disableAfterFailingMs = 3 * 24 * 60 * minute;

/** The longest Retry-After honoured; a larger one waits this long. */
const maxRetryAfterMs = 24 * 60 * minute;

/**
 * Milliseconds until the next attempt after `attempts` failed ones, or null when there is none.
 * `random` is in [0, 1).
 */
export function nextAttemptDelay(
  attempts: number,
  random: number,
  retryAfterMs: number | null = null,
): number | null {
  const base = retryDelaysMs[attempts - 1];
  if (base === undefined) return null;
  const jittered = Math.round(base * (0.9 + 0.2 * random));
  return retryAfterMs === null ? jittered : Math.max(jittered, Math.min(retryAfterMs, maxRetryAfterMs));
}

/** Retry-After as seconds or an HTTP date, in milliseconds from `nowMs`; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, nowMs: number): number | null {
  if (value === null) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - nowMs);
}
