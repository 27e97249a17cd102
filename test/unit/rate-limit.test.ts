import { describe, expect, it } from 'vitest';
import {
  memoryRateLimitStore,
  rateLimitHeaders,
  slidingWindowLimiter,
} from '../../src/core/pipeline/rate-limit.js';

const fakeClock = (start = 1_000_000) => {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
};

async function takeMany(limiter: { take(key: string): Promise<{ allowed: boolean }> }, n: number) {
  let allowed = 0;
  for (let i = 0; i < n; i++) allowed += (await limiter.take('a')).allowed ? 1 : 0;
  return allowed;
}

describe('sliding-window rate limiter', () => {
  it('allows exactly the limit, then refuses until the first admission is a window old', async () => {
    const clock = fakeClock();
    const limiter = slidingWindowLimiter({ limit: 100, windowMs: 60_000 }, clock);
    const first = await limiter.take('a');
    expect(first).toMatchObject({ allowed: true, remaining: 99, resetSeconds: 60 });
    clock.advance(10_000);
    expect(await takeMany(limiter, 99)).toBe(99);
    const refused = await limiter.take('a');
    expect(refused).toMatchObject({ allowed: false, remaining: 0, resetSeconds: 50 });
    clock.advance(49_999);
    expect((await limiter.take('a')).allowed).toBe(false);
    clock.advance(1);
    // The first admission has left the window: exactly one slot, then the other 99 at +10 s.
    expect(await limiter.take('a')).toMatchObject({ allowed: true, remaining: 0, resetSeconds: 10 });
    expect((await limiter.take('a')).allowed).toBe(false);
  });

  it('never lets twice the limit through around a minute boundary', async () => {
    const clock = fakeClock();
    const limiter = slidingWindowLimiter({ limit: 100, windowMs: 60_000 }, clock);
    clock.advance(59_999);
    let allowed = await takeMany(limiter, 100);
    clock.advance(2);
    allowed += await takeMany(limiter, 100);
    expect(allowed).toBe(100);
  });

  it('keeps separate budgets per key', async () => {
    const limiter = slidingWindowLimiter({ limit: 1, windowMs: 60_000 }, fakeClock());
    expect((await limiter.take('a')).allowed).toBe(true);
    expect((await limiter.take('a')).allowed).toBe(false);
    expect((await limiter.take('b')).allowed).toBe(true);
  });

  it('tells a refused client when to retry, in every header', async () => {
    const clock = fakeClock();
    const limiter = slidingWindowLimiter({ limit: 2, windowMs: 60_000 }, clock);
    await limiter.take('a');
    clock.advance(30_500);
    await limiter.take('a');
    const refused = await limiter.take('a');
    expect(refused.allowed).toBe(false);
    expect(refused.resetSeconds).toBe(30);
    expect(rateLimitHeaders(refused)).toMatchObject({
      'Retry-After': '30',
      'X-RateLimit-Limit': '2',
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': '30',
      'RateLimit-Policy': '"default";q=2;w=60',
      RateLimit: '"default";r=0;t=30',
    });
  });

  it('sets no Retry-After on an allowed request', async () => {
    const limiter = slidingWindowLimiter({}, fakeClock());
    expect(rateLimitHeaders(await limiter.take('a'))['Retry-After']).toBeUndefined();
  });

  it('forgets idle keys and still counts busy ones after a sweep', async () => {
    const store = memoryRateLimitStore();
    expect((await store.take('a', 0, 1, 1_000)).allowed).toBe(true);
    expect((await store.take('b', 500, 1, 1_000)).allowed).toBe(true);
    // The sweep at 1 000 forgets "a" (its admission left the window) but not "b".
    expect((await store.take('a', 1_000, 1, 1_000)).allowed).toBe(true);
    expect((await store.take('b', 1_400, 1, 1_000)).allowed).toBe(false);
  });

  it('takes its state from a store it is given', async () => {
    const seen: string[] = [];
    const inner = memoryRateLimitStore();
    const limiter = slidingWindowLimiter(
      {
        limit: 3,
        store: {
          take(key, nowMs, limit, windowMs) {
            seen.push(`${key} ${nowMs} ${limit} ${windowMs}`);
            return inner.take(key, nowMs, limit, windowMs);
          },
        },
      },
      fakeClock(5),
    );
    await limiter.take('k');
    expect(seen).toEqual(['k 5 3 60000']);
  });
});
