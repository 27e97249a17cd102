export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  /** Requests that may still be sent in the current window, after this one. */
  remaining: number;
  /**
   * Seconds until the oldest admission in the window leaves it, so `remaining` goes up by one
   * (for a refused request, the Retry-After: waiting that long is enough to be admitted).
   */
  resetSeconds: number;
  windowSeconds: number;
}

/**
 * Keeps, per key, the times of the last `limit` admissions, and decides whether one more request
 * fits: it does when fewer than `limit` admissions lie in `(nowMs - windowMs, nowMs]`, that is when
 * the `limit`-th most recent one is at least `windowMs` old. An admitted request is recorded at
 * `nowMs`; a refused one is not recorded (a client that keeps hammering is not locked out longer).
 *
 * Concurrency contract: concurrent `take`s of one key (from one process or, for a shared store,
 * from every process using it) behave as if run one after another in some order: together they
 * admit at most `limit` requests in any window of `windowMs`, and each decision's `remaining` and
 * `resetSeconds` describe the state right after that take. A store is called outside any storage
 * transaction and exactly once per request, so a store must not assume it runs in one.
 */
export interface RateLimitStore {
  take(key: string, nowMs: number, limit: number, windowMs: number): Promise<RateLimitDecision>;
}

/**
 * The decision for a key whose admissions inside the window are known: `count` of them, the
 * oldest at `oldestMs` (ignored when `count` is 0). Shared by every store so headers agree.
 */
export function decision(
  allowed: boolean,
  count: number,
  oldestMs: number,
  nowMs: number,
  limit: number,
  windowMs: number,
): RateLimitDecision {
  const untilSlot = count === 0 ? 0 : oldestMs + windowMs - nowMs;
  return {
    allowed,
    limit,
    remaining: Math.max(0, limit - count),
    resetSeconds: Math.max(allowed ? 0 : 1, Math.ceil(untilSlot / 1000)),
    windowSeconds: Math.ceil(windowMs / 1000),
  };
}
