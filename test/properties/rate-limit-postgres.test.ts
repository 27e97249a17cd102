import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PostgresStorage } from '../../src/adapters/postgres/index.js';
import { postgresStorage } from '../../src/adapters/postgres/index.js';
import { type RateLimitStore, slidingWindowLimiter } from '../../src/core/pipeline/rate-limit.js';
import {
  describeOnPostgres,
  dropSchema,
  freshSchema,
  requireDatabaseUrl,
  tempPostgresStorage,
  testDatabaseUrl,
} from '../support/postgres.js';

/**
 * The PostgreSQL store keeps the limiter's promise exactly (rolling-window.test.ts holds the
 * memory store to it): refused if and only if `limit` admissions lie in the last window, and
 * headers that say exactly when a slot frees. Fake clock; each run on a key of its own.
 */
const windowMs = 60_000;

const requestTimes = fc
  .array(fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 2_000 }), fc.integer({ min: 0, max: 90_000 })), {
    maxLength: 120,
  })
  .map((gaps) => {
    let t = 0;
    return gaps.map((gap) => (t += gap));
  });

describeOnPostgres('rolling-window rate limit on the PostgreSQL store (fake clock)', () => {
  let storage: PostgresStorage;
  let run = 0;
  beforeAll(async () => {
    storage = await tempPostgresStorage();
  });
  afterAll(async () => {
    await storage?.close();
  });

  /** The store, with every key of this run made its own. */
  const storeOfRun = (): RateLimitStore => {
    const prefix = `run${run++}:`;
    return { take: (key, nowMs, limit, w) => storage.rateLimits.take(prefix + key, nowMs, limit, w) };
  };

  it('refuses if and only if the window is full, with exact Remaining and Reset', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 12 }), requestTimes, async (limit, times) => {
        let now = 0;
        const limiter = slidingWindowLimiter({ limit, windowMs, store: storeOfRun() }, { now: () => now });
        const admitted: number[] = [];
        for (const t of times) {
          now = t;
          const inWindow = admitted.filter((a) => a > t - windowMs);
          const d = await limiter.take('token');
          expect(d.allowed).toBe(inWindow.length < limit);
          if (d.allowed) {
            admitted.push(t);
            inWindow.push(t);
          }
          expect(d.remaining).toBe(limit - inWindow.length);
          const freesAt = (inWindow[0] ?? t) + windowMs;
          expect(d.resetSeconds).toBe(Math.max(d.allowed ? 0 : 1, Math.ceil((freesAt - t) / 1000)));
        }
      }),
      { numRuns: 40 },
    );
  });
});

describe.skipIf(!testDatabaseUrl)('PostgreSQL rate limit allowances (a limit of 128 or more)', () => {
  let storage: PostgresStorage;
  beforeAll(async () => {
    storage = await tempPostgresStorage();
  });
  afterAll(async () => {
    await storage?.close();
  });

  it('admits exactly the limit in a window to one process, concurrent takes included, and refuses after', async () => {
    const limit = 1000;
    let now = 5_000;
    const limiter = slidingWindowLimiter({ limit, windowMs, store: storage.rateLimits }, { now: () => now });
    const decisions = await Promise.all(Array.from({ length: 1100 }, () => limiter.take('allowance-key')));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(limit);
    const remaining = decisions.filter((d) => d.allowed).map((d) => d.remaining);
    // Every admitted request saw its own place in the window: each Remaining once.
    expect(new Set(remaining).size).toBe(limit);
    expect(Math.min(...remaining)).toBe(0);
    // A window later, the key's admissions have left it.
    now += windowMs + 1;
    expect((await limiter.take('allowance-key')).allowed).toBe(true);
  });

  it('holds a key shared by two processes to the limit plus an allowance each in any window', async () => {
    // Two storages on one schema: two processes sharing the key's admissions.
    const schema = freshSchema();
    const open = () => postgresStorage({ connectionString: requireDatabaseUrl(), schema, poolMax: 2 });
    const first = open();
    await first.ready();
    const second = open();
    try {
      const limit = 640; // allowances of up to 10 (a 64th of the limit)
      let now = 0;
      const clock = { now: () => now };
      const limiters = [first, second].map((s) =>
        slidingWindowLimiter({ limit, windowMs, store: s.rateLimits }, clock),
      );
      const admittedAt: number[] = [];
      // Three minutes of a request every 50 ms, two of three through the first process.
      for (let step = 0; step < 3600; step++) {
        now = step * 50;
        if ((await limiters[step % 3 === 0 ? 1 : 0]?.take('shared-key'))?.allowed) admittedAt.push(now);
      }
      let most = 0;
      for (const t of admittedAt) {
        most = Math.max(most, admittedAt.filter((x) => x > t - windowMs && x <= t).length);
      }
      expect(most).toBeGreaterThanOrEqual(limit - 2 * 10);
      expect(most).toBeLessThanOrEqual(limit + 2 * 10);
    } finally {
      await first.close();
      await second.close();
      await dropSchema(schema);
    }
  });
});
