import { describe, expect, it } from 'vitest';
import { openIssueStatuses, openOutcomeStatuses } from '../../src/core/model.js';
import { at, sampleRow } from '../conformance/fixtures.js';
import { recordedSqlite } from '../support/recorded-sqlite.js';

/**
 * The overdue sweep reads its partial indexes (migration 27), which hold only open rows that are
 * not archived: the issues resolved, closed or archived past their due day, which every sweep of
 * every process walked past before, are not in them. The sweep names the open statuses as the
 * index does, so a change to the model's open statuses that the index does not follow fails here.
 */
describe('the overdue sweep on SQLite', () => {
  const db = recordedSqlite('overdue-plan', (storage) =>
    storage.transaction(async (t) => {
      await t.tenancy.insertAccount({ id: 'acc_1', name: 'One', createdAt: at(0) });
      await t.tenancy.insertWorkspace({
        id: 'wsp_1',
        accountId: 'acc_1',
        slug: 'one',
        name: 'One',
        createdAt: at(0),
      });
      for (let i = 0; i < 500; i++) {
        const status = i % 2 === 0 ? 'resolved' : 'closed';
        await t.collections.issues.insert(sampleRow('issues', 'wsp_1', { status, dueOn: '2026-01-01' }));
      }
      await t.collections.issues.insert(
        sampleRow('issues', 'wsp_1', { status: 'open', dueOn: '2026-01-02', archivedAt: at(1) }),
      );
      await t.collections.issues.insert(
        sampleRow('issues', 'wsp_1', { status: 'blocked', dueOn: '2026-01-03' }),
      );
    }),
  );

  it('finds the open rows past their day through the index of open rows, which holds nothing else', async () => {
    db.statements.length = 0;
    const found = await db
      .storage()
      .transaction((t) =>
        t.overdue.findDue('issues', { before: '2026-02-01', statuses: openIssueStatuses }, 10),
      );
    expect(found).toHaveLength(1);
    await db
      .storage()
      .transaction((t) =>
        t.overdue.findDue('outcomes', { before: '2026-02-01', statuses: openOutcomeStatuses }, 10),
      );
    const plans = db.plans((sql) => /^\s*SELECT\b/.test(sql) && /overdue_signalled_for/.test(sql));
    expect(plans).toHaveLength(2);
    expect(plans[0]).toMatch(/USING INDEX issues_due_unsignalled/);
    expect(plans[1]).toMatch(/USING INDEX outcomes_due_unsignalled/);
    // The entries the index holds (the cells of its pages, interior ones included: an index keeps
    // keys there too): the one open, live issue, not the 500 resolved and closed nor the archived one.
    const reader = db.reader();
    const held = reader
      .prepare("SELECT SUM(ncell) AS n FROM dbstat WHERE name = 'issues_due_unsignalled'")
      .get() as { n: number };
    reader.close();
    expect(held.n).toBe(1);
  });
});
