import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqliteStorage } from '../../src/adapters/sqlite/index.js';
import type { Storage } from '../../src/core/index.js';
import { at, sampleDelivery } from '../conformance/fixtures.js';
import { queryPlan } from '../support/query-plan.js';

/**
 * A thorough claim that passes over a subscription with no slot (its receiver is slow) finds the
 * deliveries of the others without walking that subscription's whole backlog (migration 12): a
 * few pages in due order, then through the index of due deliveries by subscription, a skip per
 * subscription and the head of each other one's queue. Walked, a backlog of 100,000 cost every
 * such claim 54 ms of the connection.
 */
describe('claims of webhook deliveries behind a backlog, on SQLite', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ot-claim-plans-'));
  const filename = join(dir, 'tracker.db');
  let storage: Storage;
  const statements: string[] = [];

  beforeAll(async () => {
    storage = sqliteStorage({ filename, onStatement: (sql) => statements.push(sql) });
    await storage.transaction(async (t) => {
      for (let i = 0; i < 3_000; i++) {
        await t.deliveries.insert(sampleDelivery('acc_1', 'whk_busy', { nextAttemptAt: at(i % 60) }));
      }
      await t.deliveries.insert(sampleDelivery('acc_2', 'whk_quiet', { nextAttemptAt: at(61) }));
      await t.deliveries.insert(sampleDelivery('acc_3', 'whk_later', { nextAttemptAt: at(62) }));
      await t.deliveries.insert(sampleDelivery('acc_3', 'whk_later', { nextAttemptAt: at(5_000) }));
    });
  });
  afterAll(async () => {
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  });

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

    const reader = new Database(filename, { readonly: true });
    const plans = statements
      .filter((sql) => /^\s*(WITH|SELECT)\b/.test(sql) && /FROM deliveries\b/.test(sql))
      .map((sql) => queryPlan(reader, sql).join('\n'));
    reader.close();
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
    const reader = new Database(filename, { readonly: true });
    const plans = statements
      .filter((sql) => /^\s*SELECT\b/.test(sql) && /FROM deliveries\b/.test(sql))
      .map((sql) => queryPlan(reader, sql).join('\n'));
    reader.close();
    expect(plans.join('\n')).toContain('deliveries_claimable');
  });
});
