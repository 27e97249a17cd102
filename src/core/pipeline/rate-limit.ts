import type { Clock } from '../runtime.js';

export interface RateLimitOptions {
  /** Requests allowed in any rolling window; default 100. */
  limit?: number;
  /** Window length in milliseconds; default 60 000. */
  windowMs?: number;
  /**
   * Where admission times are kept; default: this process's memory. A store shared by several
   * processes (a database) makes them enforce one limit together.
   */
  store?: RateLimitStore;
}

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

export interface RateLimiter {
  /** Counts one request for `key` and says whether it may proceed. */
  take(key: string): Promise<RateLimitDecision>;
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

/**
 * The admission times of one key, oldest first, in a ring of `limit` slots: O(1) per take.
 * Times that have left the window are dropped from the front as they are met.
 */
class AdmissionRing {
  private readonly times: number[];
  private start = 0;
  private count = 0;

  constructor(readonly limit: number) {
    this.times = new Array<number>(limit).fill(0);
  }

  get newest(): number {
    return this.times[(this.start + this.count - 1) % this.limit] ?? 0;
  }

  take(nowMs: number, windowMs: number): RateLimitDecision {
    // Drop admissions at least a window old; each is dropped once, so this is O(1) amortized.
    while (this.count > 0 && (this.times[this.start] ?? 0) <= nowMs - windowMs) {
      this.start = (this.start + 1) % this.limit;
      this.count--;
    }
    const oldest = this.times[this.start] ?? 0;
    if (this.count >= this.limit) return decision(false, this.count, oldest, nowMs, this.limit, windowMs);
    this.times[(this.start + this.count) % this.limit] = nowMs;
    this.count++;
    return decision(true, this.count, this.times[this.start] ?? nowMs, nowMs, this.limit, windowMs);
  }
}

/**
 * The exact sliding-window limiter of one process, synchronous, for callers that keep their
 * own state (the admin sign-in throttle) and for the in-memory store.
 */
export interface SlidingWindow {
  take(key: string, nowMs: number, limit: number, windowMs: number): RateLimitDecision;
}

export function slidingWindow(): SlidingWindow {
  const rings = new Map<string, AdmissionRing>();
  let nextSweep = 0;
  return {
    take(key, nowMs, limit, windowMs) {
      if (nowMs >= nextSweep) {
        // Forget keys with nothing left in the window, so idle clients cost no memory.
        for (const [k, ring] of rings) if (ring.newest <= nowMs - windowMs) rings.delete(k);
        nextSweep = nowMs + windowMs;
      }
      let ring = rings.get(key);
      if (!ring || ring.limit !== limit) {
        ring = new AdmissionRing(limit);
        rings.set(key, ring);
      }
      return ring.take(nowMs, windowMs);
    },
  };
}

/** The default store: admission times in this process's memory (each process limits alone). */
export function memoryRateLimitStore(): RateLimitStore {
  const window = slidingWindow();
  return { take: async (key, nowMs, limit, windowMs) => window.take(key, nowMs, limit, windowMs) };
}

/** Never more than `limit` requests per key in any rolling `windowMs` (CONTRACT §4). */
export function slidingWindowLimiter(options: RateLimitOptions, clock: Clock): RateLimiter {
  const limit = options.limit ?? 100;
  const windowMs = options.windowMs ?? 60_000;
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError('rate limit must be a positive integer');
  if (!(windowMs > 0)) throw new RangeError('rate limit window must be positive');
  const store = options.store ?? memoryRateLimitStore();
  return { take: (key) => store.take(key, clock.now(), limit, windowMs) };
}

/** The rate-limit headers of CONTRACT §4, for every response. */
export function rateLimitHeaders(d: RateLimitDecision): Record<string, string> {
  const headers: Record<string, string> = {
    'X-RateLimit-Limit': String(d.limit),
    'X-RateLimit-Remaining': String(d.remaining),
    'X-RateLimit-Reset': String(d.resetSeconds),
    'RateLimit-Policy': `"default";q=${d.limit};w=${d.windowSeconds}`,
    RateLimit: `"default";r=${d.remaining};t=${d.resetSeconds}`,
  };
  if (!d.allowed) headers['Retry-After'] = String(d.resetSeconds);
  return headers;
}
