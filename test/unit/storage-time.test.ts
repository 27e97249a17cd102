import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  memoryStorageTimeStore,
  type StorageTimeBudget,
  type StorageTimeStore,
  storageTimeActiveMs,
  storageTimeBudget,
  storageTimeSettleMs,
} from '../../src/core/pipeline/storage-time.js';

describe('storage time budget', () => {
  it('admits an account alone whatever it takes, and never into debt', () => {
    const budget = storageTimeBudget({ msPerWindow: 1_000, windowMs: 60_000 });
    for (let i = 0; i < 100; i++) {
      expect(budget.admit('acc_a', i * 10)).toBeNull();
      budget.charge('acc_a', 600, i * 10);
    }
    // 60,000 ms taken, 1,000 of them from the share: a rival coming now finds it empty, not owing
    // a minute of an idle server, so it has some again at the next ms of refill.
    expect(budget.admit('acc_b', 990)).toBeNull();
    expect(budget.refusal('acc_a', 990)).toBe(1);
    expect(budget.refusal('acc_a', 991)).toBeNull();
  });

  it('holds an account to its share while another with share left is active, then says when it may go on', () => {
    const budget = storageTimeBudget({ msPerWindow: 1_000, windowMs: 60_000 });
    expect(budget.admit('acc_b', 0)).toBeNull();
    expect(budget.admit('acc_a', 0)).toBeNull();
    budget.charge('acc_a', 600, 0);
    expect(budget.refusal('acc_a', 0)).toBeNull();
    // Overdrawn by 200 ms: refilled at 1,000 ms a minute, it has some again after 12 s.
    budget.charge('acc_a', 600, 0);
    expect(budget.admit('acc_a', 0)).toBe(13);
    // The rival is active for 2 s after its last use; it keeps using the storage lightly.
    for (let t = 1_000; t < 12_000; t += 1_000) {
      budget.charge('acc_b', 1, t);
      expect(budget.admit('acc_a', t)).not.toBeNull();
      expect(budget.admit('acc_b', t)).toBeNull();
    }
    expect(budget.refusal('acc_a', 12_001)).toBeNull();
  });

  it('lets an account that used its share go on once the others go quiet', () => {
    const budget = storageTimeBudget({ msPerWindow: 1_000, windowMs: 60_000 });
    budget.charge('acc_b', 1, 0);
    budget.charge('acc_a', 1_200, 0);
    expect(budget.admit('acc_a', 0)).not.toBeNull();
    // acc_b last used the storage at 0: from 2 s on it is not active, and acc_a is alone.
    expect(budget.admit('acc_a', storageTimeActiveMs + 250)).toBeNull();
  });

  it('does not hold accounts that have all used their shares against each other', () => {
    const budget = storageTimeBudget({ msPerWindow: 1_000, windowMs: 60_000 });
    budget.charge('acc_a', 1_500, 0);
    budget.charge('acc_b', 1_500, 0);
    expect(budget.admit('acc_a', 0)).toBeNull();
    expect(budget.admit('acc_b', 0)).toBeNull();
    // A third with share left makes both wait.
    expect(budget.admit('acc_c', 0)).toBeNull();
    expect(budget.admit('acc_a', 0)).not.toBeNull();
    expect(budget.admit('acc_b', 0)).not.toBeNull();
  });

  it('saves up no more than one share', () => {
    const budget = storageTimeBudget({ msPerWindow: 1_000, windowMs: 60_000 });
    budget.charge('acc_b', 1, 3_600_000);
    budget.charge('acc_a', 1, 0);
    // An hour idle refills to 1,000 ms, not 60,000: 1,001 ms then overdraws it.
    budget.charge('acc_a', 1_001, 3_600_000);
    expect(budget.refusal('acc_a', 3_600_000)).not.toBeNull();
  });

  it('never refuses an account that has not used its share, whatever the others take', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            account: fc.constantFrom('acc_a', 'acc_b', 'acc_c'),
            gapMs: fc.integer({ min: 0, max: 3_000 }),
            busyMs: fc.double({ min: 0, max: 400, noNaN: true }),
          }),
          { maxLength: 300 },
        ),
        (requests) => {
          const share = 1_000;
          const windowMs = 60_000;
          const budget = storageTimeBudget({ msPerWindow: share, windowMs });
          // A model of each account's bucket with nothing forgiven: one that has taken less than
          // its share of every span since it began (and its share saved up) is never refused.
          const used = new Map<string, { left: number; at: number }>();
          let now = 0;
          for (const { account, gapMs, busyMs } of requests) {
            now += gapMs;
            const model = used.get(account) ?? { left: share, at: now };
            const left = Math.min(share, model.left + (now - model.at) * (share / windowMs));
            const refused = budget.admit(account, now) !== null;
            if (left > 0) expect(refused).toBe(false);
            if (refused) continue;
            budget.charge(account, busyMs, now);
            used.set(account, { left: left - busyMs, at: now });
          }
        },
      ),
    );
  });

  it('never lets an account take more than its share of a span a rival is active throughout, the saved-up share and one request', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            gapMs: fc.integer({ min: 0, max: 1_500 }),
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
            // A light rival, using a µs of the storage before each request: active throughout.
            budget.charge('acc_light', 0.001, now);
            if (budget.admit('acc', now) !== null) continue;
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

describe('storage time shared by several processes', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Lets the settle timers fire and their settles finish. */
  const settle = () => vi.advanceTimersByTimeAsync(storageTimeSettleMs);

  it('refuses an account on one process once another has spent its share, and settles each charge once', async () => {
    vi.useFakeTimers();
    const store = memoryStorageTimeStore();
    const settled: number[] = [];
    const counting: StorageTimeStore = {
      settle: (charges, ...rest) => {
        const charge = charges.get('acc_a');
        if (charge !== undefined) settled.push(charge);
        return store.settle(charges, ...rest);
      },
    };
    const now = 1_000_000;
    const first = storageTimeBudget({ msPerWindow: 1_000, windowMs: 60_000, store: counting }, () => now);
    const second = storageTimeBudget({ msPerWindow: 1_000, windowMs: 60_000, store: counting }, () => now);
    // A light account is active on the second process only: the first hears of it at a settle.
    second.charge('acc_light', 0.001, now);
    first.charge('acc_a', 700, now);
    second.charge('acc_a', 200, now);
    // Each process has seen only its own spending so far.
    expect(first.refusal('acc_a', now)).toBeNull();
    expect(second.refusal('acc_a', now)).toBeNull();
    await settle();
    expect(settled.sort((a, b) => a - b)).toEqual([200, 700]);
    // 900 of 1,000 spent between them: 150 more on the first takes the shared bucket below zero.
    first.charge('acc_a', 150, now);
    await settle();
    expect(first.refusal('acc_a', now)).not.toBeNull();
    // The second hears of it at its next settle, which follows its next charge.
    second.charge('acc_a', 1, now);
    await settle();
    expect(second.refusal('acc_a', now)).not.toBeNull();
    // Another account is untouched.
    expect(second.refusal('acc_b', now)).toBeNull();
    expect(settled.reduce((a, b) => a + b, 0)).toBe(1_051);
  });

  it('keeps charges the store could not take for the next settle', async () => {
    vi.useFakeTimers();
    const store = memoryStorageTimeStore();
    let down = true;
    const flaky: StorageTimeStore = {
      settle: (...args) => (down ? Promise.reject(new Error('database unreachable')) : store.settle(...args)),
    };
    const now = 5_000;
    const told: unknown[] = [];
    const first = storageTimeBudget(
      { msPerWindow: 1_000, windowMs: 60_000, store: flaky },
      () => now,
      (e) => told.push(e),
    );
    const second = storageTimeBudget({ msPerWindow: 1_000, windowMs: 60_000, store }, () => now);
    second.charge('acc_light', 0.001, now);
    first.charge('acc_a', 900, now);
    await settle();
    await settle();
    // Told once for the run of failures, not at every second.
    expect(told.map((e) => (e as Error).message)).toEqual(['database unreachable']);
    down = false;
    await settle();
    // The 900 ms reached the shared bucket after all: 200 more on the second overdraws it.
    second.charge('acc_a', 200, now);
    await settle();
    expect(second.refusal('acc_a', now)).not.toBeNull();
  });

  it('still owes what it charged while a settle was on its way', async () => {
    vi.useFakeTimers();
    const store = memoryStorageTimeStore();
    let answer: (() => void) | null = null;
    const slow: StorageTimeStore = {
      settle: async (...args) => {
        await new Promise<void>((resolve) => {
          answer = resolve;
        });
        return store.settle(...args);
      },
    };
    const budget = storageTimeBudget({ msPerWindow: 1_000, windowMs: 60_000, store: slow }, () => 0);
    budget.charge('acc_light', 0.001, 0);
    budget.charge('acc_a', 500, 0);
    await vi.advanceTimersByTimeAsync(storageTimeSettleMs);
    // The settle of the 500 is on its way; 600 more are charged before the store answers 500 left.
    budget.charge('acc_a', 600, 0);
    (answer as unknown as () => void)();
    await vi.advanceTimersByTimeAsync(0);
    expect(budget.refusal('acc_a', 0)).not.toBeNull();
    // And the 600 are settled next.
    await vi.advanceTimersByTimeAsync(storageTimeSettleMs);
    (answer as unknown as () => void)();
    await vi.advanceTimersByTimeAsync(0);
    expect((await store.settle(new Map([['acc_a', 0]]), 0, 1_000, 60_000, 0)).get('acc_a')?.left).toBe(-100);
  });

  it('settles what is left as it closes, and settles no more after', async () => {
    vi.useFakeTimers();
    const settled: number[] = [];
    const store = memoryStorageTimeStore();
    const counting: StorageTimeStore = {
      settle: (charges, ...rest) => {
        settled.push(...charges.values());
        return store.settle(charges, ...rest);
      },
    };
    const budget = storageTimeBudget({ msPerWindow: 1_000, windowMs: 60_000, store: counting }, () => 0);
    budget.charge('acc_a', 300, 0);
    await budget.close();
    expect(settled).toEqual([300]);
    budget.charge('acc_a', 5, 0);
    await vi.advanceTimersByTimeAsync(10 * storageTimeSettleMs);
    expect(settled).toEqual([300]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('closes within a settle interval when the store does not answer', async () => {
    vi.useFakeTimers();
    const silent: StorageTimeStore = { settle: () => new Promise(() => {}) };
    const budget = storageTimeBudget({ msPerWindow: 1_000, windowMs: 60_000, store: silent }, () => 0);
    budget.charge('acc_a', 300, 0);
    let closed = false;
    void budget.close().then(() => {
      closed = true;
    });
    await vi.advanceTimersByTimeAsync(storageTimeSettleMs - 1);
    expect(closed).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(closed).toBe(true);
  });

  it('gives N processes one share over time: at most the share a window, N saved-up shares and a settle of spending each', async () => {
    vi.useFakeTimers();
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 4 }),
        // Steady demand of several shares a window for several windows, spread over the processes:
        // each process alone would let through a share a window.
        fc.array(
          fc.record({
            process: fc.nat(3),
            gapMs: fc.integer({ min: 100, max: 1_500 }),
            busyMs: fc.double({ min: 0, max: 200, noNaN: true }),
          }),
          { minLength: 200, maxLength: 400 },
        ),
        async (processes, requests) => {
          const share = 1_000;
          const windowMs = 60_000;
          const store = memoryStorageTimeStore();
          let now = 0;
          const budgets = Array.from({ length: processes }, () =>
            storageTimeBudget({ msPerWindow: share, windowMs, store }, () => now),
          );
          let used = 0;
          const spentSince: number[] = budgets.map(() => 0);
          let largestSettleSpend = 0;
          for (const { process, gapMs, busyMs } of requests) {
            // Time passes in steps, so the settles due meanwhile run in order.
            for (let step = 0; step < gapMs; step += storageTimeSettleMs) {
              const advance = Math.min(storageTimeSettleMs, gapMs - step);
              now += advance;
              await vi.advanceTimersByTimeAsync(advance);
              for (const i of spentSince.keys()) {
                largestSettleSpend = Math.max(largestSettleSpend, spentSince[i] ?? 0);
                spentSince[i] = 0;
              }
            }
            const i = process % processes;
            const budget = budgets[i] as StorageTimeBudget;
            // A light account, active on every process throughout.
            for (const each of budgets) each.charge('acc_light', 0.001, now);
            if (budget.admit('acc', now) !== null) continue;
            budget.charge('acc', busyMs, now);
            used += busyMs;
            spentSince[i] = (spentSince[i] ?? 0) + busyMs;
          }
          for (const spent of spentSince) largestSettleSpend = Math.max(largestSettleSpend, spent);
          const bound = share * (now / windowMs) + processes * (share + largestSettleSpend) + 1e-6;
          expect(used).toBeLessThanOrEqual(bound);
        },
      ),
      { numRuns: 40 },
    );
  });
});
