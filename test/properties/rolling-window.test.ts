import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { memoryStorage } from '../../src/adapters/memory/index.js';
import { createTracker, type Storage } from '../../src/core/index.js';
import { type RateLimitDecision, slidingWindowLimiter } from '../../src/core/pipeline/rate-limit.js';
import { seedWorkspace } from '../http/harness.js';

/**
 * The rate limit's promise (CONTRACT §4): never more than `limit` admissions in any rolling
 * window, a client that paces itself at the limit is never refused, and the headers say exactly
 * what the next request will meet.
 */
const windowMs = 60_000;

const clockAt = () => {
  let now = 0;
  return { now: () => now, set: (ms: number) => (now = ms) };
};

/** Request times: sorted offsets, with bursts (many at one instant) and long pauses. */
const requestTimes = fc
  .array(fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 2_000 }), fc.integer({ min: 0, max: 90_000 })), {
    maxLength: 400,
  })
  .map((gaps) => {
    let t = 0;
    return gaps.map((gap) => (t += gap));
  });

/** A limiter of `limit` requests a window, on a fake clock of its own, and that clock. */
const limiterOnFakeClock = (limit: number) => {
  const clock = clockAt();
  return { clock, limiter: slidingWindowLimiter({ limit, windowMs }, clock) };
};

/** Asserts `check` over 300 runs of a limit from 1 to `maxLimit` and arbitrary request times. */
const forLimitsAndTimes = (maxLimit: number, check: (limit: number, times: number[]) => Promise<void>) =>
  fc.assert(fc.asyncProperty(fc.integer({ min: 1, max: maxLimit }), requestTimes, check), { numRuns: 300 });

describe('rolling-window rate limit (fake clock, arbitrary request times)', () => {
  it('no window of 60 s ever holds more than the limit', async () => {
    await forLimitsAndTimes(30, async (limit, times) => {
      const { clock, limiter } = limiterOnFakeClock(limit);
      const admitted: number[] = [];
      for (const t of times) {
        clock.set(t);
        if ((await limiter.take('token')).allowed) admitted.push(t);
      }
      // The densest window starts at an admission: [admitted[i], admitted[i] + windowMs).
      for (let i = 0; i + limit < admitted.length; i++) {
        expect((admitted[i + limit] ?? 0) - (admitted[i] ?? 0)).toBeGreaterThanOrEqual(windowMs);
      }
    });
  });

  it('admits every request while fewer than the limit were admitted in the last 60 s', async () => {
    await forLimitsAndTimes(30, async (limit, times) => {
      const { clock, limiter } = limiterOnFakeClock(limit);
      const admitted: number[] = [];
      for (const t of times) {
        clock.set(t);
        const inWindow = admitted.filter((a) => a > t - windowMs).length;
        const d = await limiter.take('token');
        // Exact: refused if and only if the window is full.
        expect(d.allowed).toBe(inWindow < limit);
        if (d.allowed) admitted.push(t);
      }
    });
  });

  it('never refuses a client pacing at the limit, whatever its phase and jitter', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 200 }),
        fc.integer({ min: 0, max: 10 * windowMs }),
        fc.array(fc.integer({ min: 0, max: 5_000 }), { minLength: 1, maxLength: 300 }),
        async (limit, start, lateness) => {
          const { clock, limiter } = limiterOnFakeClock(limit);
          // Request i goes out no earlier than start + i·window/limit (late is fine, early is not).
          const spacing = Math.ceil(windowMs / limit);
          let t = start;
          for (const late of lateness) {
            clock.set(t);
            expect((await limiter.take('token')).allowed).toBe(true);
            t += spacing + late;
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('headers are exact: Remaining requests succeed at once, Reset is when a slot frees, Retry-After suffices', async () => {
    await forLimitsAndTimes(20, async (limit, times) => {
      const { clock, limiter } = limiterOnFakeClock(limit);
      const admitted: number[] = [];
      let last: RateLimitDecision | null = null;
      for (const t of times) {
        clock.set(t);
        last = await limiter.take('token');
        if (last.allowed) admitted.push(t);
        const inWindow = admitted.filter((a) => a > t - windowMs);
        expect(last.remaining).toBe(limit - inWindow.length);
        const freesAt = (inWindow[0] ?? t) + windowMs;
        expect(last.resetSeconds).toBe(Math.max(last.allowed ? 0 : 1, Math.ceil((freesAt - t) / 1000)));
      }
      if (!last) return;
      // A client that believes the headers is right to: `remaining` more succeed at once, the
      // next is refused, and after its Retry-After one more succeeds.
      const now = clock.now();
      for (let i = 0; i < last.remaining; i++) expect((await limiter.take('token')).allowed).toBe(true);
      const refused = await limiter.take('token');
      expect(refused.allowed).toBe(false);
      clock.set(now + refused.resetSeconds * 1000);
      expect((await limiter.take('token')).allowed).toBe(true);
    });
  });
});

describe('the rate limit in the request pipeline', () => {
  it('counts a request once even when its storage transaction is run twice', async () => {
    const inner = memoryStorage();
    let reruns = 0;
    // Runs every transaction once and rolls it back, then for real: as a database that retries
    // a transaction after a serialization failure does.
    const rerunning: Storage = {
      async transaction(fn, options) {
        const rollback = new Error('rolled back for a re-run');
        await inner
          .transaction(async (tx) => {
            await fn(tx);
            throw rollback;
          }, options)
          .catch((error: unknown) => {
            if (error !== rollback) throw error;
          });
        reruns++;
        return inner.transaction(fn, options);
      },
      close: () => inner.close(),
    };
    const clock = { now: () => 1_000_000 };
    const tracker = createTracker({ storage: rerunning, clock, rateLimit: { limit: 3 } });
    const ws = await seedWorkspace(tracker, rerunning, tracker.ids, clock.now(), 'twice', 'admin@twice.test');
    const create = () =>
      tracker.handle({
        method: 'POST',
        path: '/api/v1/projects',
        headers: {
          authorization: `Bearer ${ws.adminToken}`,
          'content-type': 'application/json',
          'idempotency-key': crypto.randomUUID(),
        },
        body: JSON.stringify({ name: 'Twice' }),
      });
    const before = reruns;
    const answers = [await create(), await create(), await create(), await create()];
    // Each admitted request's transaction was run twice.
    expect(reruns - before).toBeGreaterThanOrEqual(3);
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 429]);
    expect(answers.map((a) => a.headers['X-RateLimit-Remaining'])).toEqual(['2', '1', '0', '0']);
    await tracker.close();
  });
});
