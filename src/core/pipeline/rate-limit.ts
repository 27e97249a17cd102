import type { Clock } from '../runtime.js';

export interface RateLimitOptions {
  /** Requests allowed per window; default 100. */
  limit?: number;
  /** Window length in milliseconds; default 60 000. */
  windowMs?: number;
}

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until one more request is allowed (for a rejected request, the Retry-After). */
  resetSeconds: number;
  windowSeconds: number;
}

export interface RateLimiter {
  /** Counts one request for `key` and says whether it may proceed. */
  take(key: string): RateLimitDecision;
}

/**
 * GCRA (the generic cell rate algorithm): each key has a theoretical arrival time (TAT) that
 * advances by `windowMs / limit` per request. It allows a burst of `limit` and then one request
 * per interval: a sliding limit with no window boundary to double up at, and one number per key.
 * State is per process: several processes behind a balancer each enforce the limit alone.
 */
export function gcraRateLimiter(options: RateLimitOptions, clock: Clock): RateLimiter {
  const limit = options.limit ?? 100;
  const windowMs = options.windowMs ?? 60_000;
  const interval = windowMs / limit;
  const tolerance = windowMs - interval;
  const arrivals = new Map<string, number>();
  let nextSweep = 0;

  const decide = (allowed: boolean, debt: number): RateLimitDecision => {
    const remaining = Math.max(0, Math.floor((windowMs - debt) / interval + 1e-9));
    // A slot frees when the debt falls below the level at which one more request fits.
    const untilSlot = debt - (windowMs - (remaining + 1) * interval);
    return {
      allowed,
      limit,
      remaining: allowed ? remaining : 0,
      resetSeconds: Math.max(allowed ? 0 : 1, Math.ceil(untilSlot / 1000)),
      windowSeconds: Math.ceil(windowMs / 1000),
    };
  };

  return {
    take(key) {
      const now = clock.now();
      if (now >= nextSweep) {
        // Forget keys whose debt is fully repaid, so idle clients cost no memory.
        for (const [k, tat] of arrivals) if (tat <= now) arrivals.delete(k);
        nextSweep = now + windowMs;
      }
      const tat = Math.max(arrivals.get(key) ?? now, now);
      if (tat - now > tolerance) return decide(false, tat - now);
      arrivals.set(key, tat + interval);
      return decide(true, tat + interval - now);
    },
  };
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
