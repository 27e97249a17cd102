import { decision, type RateLimitDecision, type RateLimitStore } from '../port/rate-limit-store.js';
import type { Clock } from '../runtime.js';

export { decision, type RateLimitDecision, type RateLimitStore };

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

export interface RateLimiter {
  /** Counts one request for `key` and says whether it may proceed. */
  take(key: string): Promise<RateLimitDecision>;
}

/** What a key of the memory limiter holds (runs, bytes) and has done (work: runs moved). */
export interface Footprint {
  runs: number;
  bytes: number;
  work: number;
}

/**
 * The admissions of one key inside the window, oldest first, as runs of (millisecond, count):
 * admissions at one millisecond share a run. The window stays exact (each admission leaves it
 * exactly `windowMs` after it was made), and what a key costs does not depend on the limit:
 *
 * - memory: at most min(limit, windowMs) runs (one per distinct millisecond in the window), 12
 *   bytes each, in typed arrays that start at 4 runs and double as needed (and halve when a
 *   quarter full): under 2·12·min(limit, windowMs) bytes + ~150 bytes of object. A key's first
 *   request costs the same at a limit of 100 as at 10^7; the default 100 a minute costs at most
 *   ~2.4 kB a key, and no limit more than ~1.4 MB for a key admitted in every millisecond of a
 *   60 s window.
 * - time: O(1) amortized per take (each run is appended once and dropped once; a resize copies
 *   the runs, paid for by the appends or drops before it): at most 4 runs moved per take.
 */
class AdmissionRuns {
  private times = new Float64Array(4);
  private counts = new Uint32Array(4);
  private start = 0;
  private runs = 0;
  /** Admissions in the runs. */
  private admitted = 0;
  /** Runs appended, dropped and copied so far: the work of every take of the key, counted. */
  private work = 0;

  get newest(): number {
    return this.runs === 0 ? Number.NEGATIVE_INFINITY : (this.times[this.at(this.runs - 1)] as number);
  }

  /** What the key holds now: runs, and the bytes its arrays take. */
  get footprint(): Footprint {
    return { runs: this.runs, bytes: this.times.byteLength + this.counts.byteLength, work: this.work };
  }

  take(clockMs: number, limit: number, windowMs: number): RateLimitDecision {
    // Whole milliseconds (so a window holds at most windowMs runs), rounded up: an admission
    // then leaves the window at most a fraction of a millisecond late, never early.
    const nowMs = Math.ceil(clockMs);
    // Drop runs at least a window old; each is dropped once.
    while (this.runs > 0 && (this.times[this.start] as number) <= nowMs - windowMs) {
      this.admitted -= this.counts[this.start] as number;
      this.start = (this.start + 1) % this.times.length;
      this.runs--;
      this.work++;
    }
    if (this.runs > 0 && this.runs * 4 <= this.times.length && this.times.length > 4) {
      this.resize(this.times.length / 2);
    }
    const oldest = this.times[this.start] as number;
    if (this.admitted >= limit) return decision(false, this.admitted, oldest, nowMs, limit, windowMs);
    // A clock that stepped back joins the newest run: the admission then leaves the window a
    // little late, never early.
    if (this.runs > 0 && nowMs <= this.newest) {
      const last = this.at(this.runs - 1);
      this.counts[last] = (this.counts[last] as number) + 1;
    } else {
      if (this.runs === this.times.length) this.resize(this.times.length * 2);
      const next = this.at(this.runs);
      this.times[next] = nowMs;
      this.counts[next] = 1;
      this.runs++;
      this.work++;
    }
    this.admitted++;
    return decision(true, this.admitted, this.times[this.start] as number, nowMs, limit, windowMs);
  }

  private at(index: number): number {
    return (this.start + index) % this.times.length;
  }

  private resize(capacity: number): void {
    const times = new Float64Array(capacity);
    const counts = new Uint32Array(capacity);
    for (let i = 0; i < this.runs; i++) {
      times[i] = this.times[this.at(i)] as number;
      counts[i] = this.counts[this.at(i)] as number;
    }
    this.times = times;
    this.counts = counts;
    this.start = 0;
    this.work += this.runs;
  }
}

/**
 * The exact sliding-window limiter of one process, synchronous, for callers that keep their
 * own state (the admin sign-in throttle) and for the in-memory store.
 */
export interface SlidingWindow {
  take(key: string, nowMs: number, limit: number, windowMs: number): RateLimitDecision;
  /** What one key holds now (AdmissionRuns states the bound); zeros for a key it does not hold. */
  footprint(key: string): Footprint;
}

export function slidingWindow(): SlidingWindow {
  const keys = new Map<string, AdmissionRuns>();
  let nextSweep = 0;
  return {
    take(key, nowMs, limit, windowMs) {
      if (nowMs >= nextSweep) {
        // Forget keys with nothing left in the window, so idle clients cost no memory.
        for (const [k, runs] of keys) if (runs.newest <= nowMs - windowMs) keys.delete(k);
        nextSweep = nowMs + windowMs;
      }
      let runs = keys.get(key);
      if (!runs) {
        runs = new AdmissionRuns();
        keys.set(key, runs);
      }
      return runs.take(nowMs, limit, windowMs);
    },
    footprint: (key) => keys.get(key)?.footprint ?? { runs: 0, bytes: 0, work: 0 },
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
