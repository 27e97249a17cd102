import { describe, expect, it } from 'vitest';
import { gcraRateLimiter, rateLimitHeaders } from '../../src/core/pipeline/rate-limit.js';

const fakeClock = (start = 1_000_000) => {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
};

describe('GCRA rate limiter', () => {
  it('allows a burst of exactly the limit, then refuses', () => {
    const clock = fakeClock();
    const limiter = gcraRateLimiter({ limit: 100, windowMs: 60_000 }, clock);
    const decisions = Array.from({ length: 101 }, () => limiter.take('a'));
    expect(decisions.slice(0, 100).every((d) => d.allowed)).toBe(true);
    expect(decisions[0]?.remaining).toBe(99);
    expect(decisions[99]?.remaining).toBe(0);
    expect(decisions[100]?.allowed).toBe(false);
    expect(decisions[100]?.resetSeconds).toBe(1);
  });

  it('never lets twice the limit through around a window boundary', () => {
    const clock = fakeClock();
    const limiter = gcraRateLimiter({ limit: 100, windowMs: 60_000 }, clock);
    let allowed = 0;
    // 100 at the end of one "minute" and 100 at the start of the next: a fixed window allows 200.
    clock.advance(59_999);
    for (let i = 0; i < 100; i++) allowed += limiter.take('a').allowed ? 1 : 0;
    clock.advance(2);
    for (let i = 0; i < 100; i++) allowed += limiter.take('a').allowed ? 1 : 0;
    expect(allowed).toBe(100);
  });

  it('frees one slot per window/limit interval', () => {
    const clock = fakeClock();
    const limiter = gcraRateLimiter({ limit: 10, windowMs: 10_000 }, clock);
    for (let i = 0; i < 10; i++) limiter.take('a');
    expect(limiter.take('a').allowed).toBe(false);
    clock.advance(999);
    expect(limiter.take('a').allowed).toBe(false);
    clock.advance(1);
    expect(limiter.take('a').allowed).toBe(true);
    expect(limiter.take('a').allowed).toBe(false);
  });

  it('keeps separate budgets per key', () => {
    const limiter = gcraRateLimiter({ limit: 1, windowMs: 60_000 }, fakeClock());
    expect(limiter.take('a').allowed).toBe(true);
    expect(limiter.take('a').allowed).toBe(false);
    expect(limiter.take('b').allowed).toBe(true);
  });

  it('tells a refused client when to retry', () => {
    const limiter = gcraRateLimiter({ limit: 2, windowMs: 60_000 }, fakeClock());
    limiter.take('a');
    limiter.take('a');
    const refused = limiter.take('a');
    expect(refused.allowed).toBe(false);
    expect(refused.resetSeconds).toBe(30);
    expect(rateLimitHeaders(refused)).toMatchObject({
      'Retry-After': '30',
      'X-RateLimit-Limit': '2',
      'X-RateLimit-Remaining': '0',
      'RateLimit-Policy': '"default";q=2;w=60',
      RateLimit: '"default";r=0;t=30',
    });
  });

  it('sets no Retry-After on an allowed request', () => {
    const limiter = gcraRateLimiter({}, fakeClock());
    expect(rateLimitHeaders(limiter.take('a'))['Retry-After']).toBeUndefined();
  });
});
