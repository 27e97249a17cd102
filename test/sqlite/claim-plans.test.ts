import { describe, expect, it } from 'vitest';
import type { StorageTx } from '../../src/core/index.js';
import { at, sampleDelivery } from '../conformance/fixtures.js';
import { recordedSqlite } from '../support/recorded-sqlite.js';

/**
 * A thorough claim that passes over a subscription with no slot (its receiver is slow) finds the
 * deliveries of the others without walking that subscription's whole backlog (migration 12): a
 * few pages in due order, then through the index of due deliveries by subscription, a skip per
 * subscription and the head of each other one's queue. Walked, a backlog of 100,000 cost every
 * such claim 54 ms of the connection.
 */
describe('claims of webhook deliveries behind a backlog, on SQLite', () => {
  const db = recordedSqlite('claim-plans', (storage) =>
    storage.transaction(async (t) => {
      for (let i = 0; i < 3_000; i++) {
        await t.deliveries.insert(sampleDelivery('acc_1', 'whk_busy', { nextAttemptAt: at(i % 60) }));
      }
      await t.deliveries.insert(sampleDelivery('acc_2', 'whk_quiet', { nextAttemptAt: at(61) }));
      await t.deliveries.insert(sampleDelivery('acc_3', 'whk_later', { nextAttemptAt: at(62) }));
      await t.deliveries.insert(sampleDelivery('acc_3', 'whk_later', { nextAttemptAt: at(5_000) }));
    }),
  );
  const { statements } = db;
  const storage = { transaction: <T>(fn: (t: StorageTx) => Promise<T>) => db.storage().transaction(fn) };

  it('skips the full subscription’s backlog instead of walking it, and claims the others’ due deliveries', async () => {
    statements.length = 0;
    const claimed = await storage.transaction((t) =>
      t.deliveries.claimDue({
        now: at(100),
        leaseId: 'lease_heads',
        leaseUntil: at(200),
        limit: 64,
        subscriptionSlots: (id) => (id === 'whk_busy' ? 0 : 32),
        fullSubscriptions: ['whk_busy'],
      }),
    );
    expect(claimed.map((d) => d.subscriptionId)).toEqual(['whk_quiet', 'whk_later']);

    const plans = db.plans((sql) => /^\s*(WITH|SELECT)\b/.test(sql) && /FROM deliveries\b/.test(sql));
    // Four pages of 64 in due order (256 of the 3,000 refused), then the queues' heads.
    const walked = plans.filter((plan) => plan.includes('deliveries_claimable'));
    const heads = plans.filter((plan) => plan.includes('deliveries_due_by_subscription'));
    expect(walked).toHaveLength(4);
    expect(heads.length).toBeGreaterThan(0);
    expect(walked.length + heads.length).toBe(plans.length);
  });

  it('takes the first page in due order when nothing is left out', async () => {
    statements.length = 0;
    const claimed = await storage.transaction((t) =>
      t.deliveries.claimDue({ now: at(100), leaseId: 'lease_page', leaseUntil: at(200), limit: 5 }),
    );
    // The oldest due: the backlog's first (due at 0 s, fifty of them).
    expect(claimed).toHaveLength(5);
    expect(claimed.every((d) => d.subscriptionId === 'whk_busy' && d.nextAttemptAt === at(0))).toBe(true);
    const plans = db.plans((sql) => /^\s*SELECT\b/.test(sql) && /FROM deliveries\b/.test(sql));
    expect(plans.join('\n')).toContain('deliveries_claimable');
  });
});
