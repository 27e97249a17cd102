import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { storageTimeBudget } from '../../src/core/pipeline/storage-time.js';

describe('storage time budget', () => {
  it('admits an account until what it used passes its share, then says when it may go on', () => {
    const budget = storageTimeBudget({ msPerWindow: 1_000, windowMs: 60_000 });
    expect(budget.refusal('acc_a', 0)).toBeNull();
    budget.charge('acc_a', 600, 0);
    expect(budget.refusal('acc_a', 0)).toBeNull();
    // Overdrawn by 200 ms: refilled at 1,000 ms a minute, it has some again after 12 s.
    budget.charge('acc_a', 600, 0);
    expect(budget.refusal('acc_a', 0)).toBe(13);
    expect(budget.refusal('acc_a', 11_999)).not.toBeNull();
    expect(budget.refusal('acc_a', 12_001)).toBeNull();
    // Another account is not touched by it.
    expect(budget.refusal('acc_b', 0)).toBeNull();
  });

  it('saves up no more than one share', () => {
    const budget = storageTimeBudget({ msPerWindow: 1_000, windowMs: 60_000 });
    budget.charge('acc_a', 1, 0);
    // An hour idle refills to 1,000 ms, not 60,000: 1,001 ms then overdraws it.
    budget.charge('acc_a', 1_001, 3_600_000);
    expect(budget.refusal('acc_a', 3_600_000)).not.toBeNull();
  });

  it('never lets an account use more than its share of a span, the saved-up share and one request', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            gapMs: fc.integer({ min: 0, max: 5_000 }),
            busyMs: fc.double({ min: 0, max: 300, noNaN: true }),
          }),
          {
            maxLength: 300,
          },
        ),
        (requests) => {
          const share = 1_000;
          const windowMs = 60_000;
          const budget = storageTimeBudget({ msPerWindow: share, windowMs });
          let now = 0;
          let used = 0;
          let largest = 0;
          for (const { gapMs, busyMs } of requests) {
            now += gapMs;
            if (budget.refusal('acc', now) !== null) continue;
            budget.charge('acc', busyMs, now);
            used += busyMs;
            largest = Math.max(largest, busyMs);
          }
          expect(used).toBeLessThanOrEqual(share * (1 + now / windowMs) + largest + 1e-6);
        },
      ),
    );
  });

  it('refuses settings that would admit nothing or everything', () => {
    expect(() => storageTimeBudget({ msPerWindow: 0 })).toThrow(RangeError);
    expect(() => storageTimeBudget({ msPerWindow: Number.POSITIVE_INFINITY })).toThrow(RangeError);
    expect(() => storageTimeBudget({ windowMs: 0 })).toThrow(RangeError);
  });
});
