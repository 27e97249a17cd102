/**
 * When a failed attempt may be sent again, and how long to wait first.
 *
 * - `idempotent` (GET, DELETE): sending it twice does what sending it once does, so network
 *   errors, timeouts, 429 and 503 are all retried.
 * - `keyed` (every POST, which carries an Idempotency-Key reused on each attempt): the server
 *   replays the first answer, so the same failures are retried, and also `409
 *   idempotency_key_in_use` (the first attempt is still being processed).
 * - `unsafe` (PATCH, whose If-Match turns a repeat of a write that went through into a 409):
 *   only answers that say nothing was done are retried: 429 (refused before it was looked at)
 *   and 503 `transient_conflict` (its transaction rolled back).
 */
export type RetryMode = 'idempotent' | 'keyed' | 'unsafe';

/** What became of one attempt. */
export type AttemptOutcome =
  | { kind: 'network'; timedOut: boolean }
  | { kind: 'status'; status: number; code: string | null; retryAfterSeconds: number | null };

export interface BackoffOptions {
  /** First delay without a Retry-After, in ms; doubled each time. */
  baseDelayMs: number;
  /** Largest delay without a Retry-After, in ms. */
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the error is thrown at once. */
  maxRetryAfterMs: number;
  /** In [0, 1): jitter source. */
  random: () => number;
}

export const defaultBackoff: Omit<BackoffOptions, 'random'> = {
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
};

/** Whether this outcome of an attempt in `mode` may be retried at all. */
export function isRetryable(mode: RetryMode, outcome: AttemptOutcome): boolean {
  if (outcome.kind === 'network') return mode !== 'unsafe';
  if (outcome.status === 429) return true;
  if (outcome.status === 503 && outcome.code === 'transient_conflict') return true;
  if (mode === 'unsafe') return false;
  if (outcome.status === 503) return true;
  return mode === 'keyed' && outcome.status === 409 && outcome.code === 'idempotency_key_in_use';
}

/**
 * The wait before retry number `retry` (0 for the first retry), or null when the server asked for
 * longer than `maxRetryAfterMs`. A Retry-After is honoured (never retried sooner) with up to a
 * quarter second of jitter added, so clients told the same second do not return together; without
 * one, exponential backoff with "equal jitter" (half fixed, half random).
 */
export function retryDelayMs(retry: number, outcome: AttemptOutcome, options: BackoffOptions): number | null {
  if (outcome.kind === 'status' && outcome.retryAfterSeconds !== null) {
    const asked = outcome.retryAfterSeconds * 1000;
    if (asked > options.maxRetryAfterMs) return null;
    return asked + Math.floor(options.random() * 250);
  }
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** retry);
  return Math.floor(ceiling / 2 + (options.random() * ceiling) / 2);
}
