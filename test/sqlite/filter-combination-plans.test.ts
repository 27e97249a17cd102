import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqliteStorage } from '../../src/adapters/sqlite/index.js';
import { countedColumns } from '../../src/adapters/sqlite/migrations/002_list_counts.js';
import type { ListQuery, Storage } from '../../src/core/index.js';
import { sampleRow } from '../conformance/fixtures.js';
import { queryPlan } from '../support/query-plan.js';

/**
 * A list over several filters reads the index of the filter that the fewest rows match (the
 * maintained counts tell which), and the list indexes of issues hold the other filter columns
 * (migration 8), so that its total is counted in the index alone: time that grows with the rows
 * of the narrowest filter, not with the rows of the workspace or of the broadest filter.
 */
describe('lists over several filters on SQLite', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ot-filter-plans-'));
  const filename = join(dir, 'tracker.db');
  const workspaceId = 'wsp_plans';
  let storage: Storage;
  const statements: string[] = [];

  beforeAll(async () => {
    storage = sqliteStorage({ filename, onStatement: (sql) => statements.push(sql) });
    // prj_big: 40 open and 4 blocked; prj_small: 4 open. Every issue is high, 2 of them critical.
    await storage.transaction(async (tx) => {
      const rows = [
        ...Array.from({ length: 40 }, () => ({ projectId: 'prj_big', status: 'open' as const })),
        ...Array.from({ length: 4 }, () => ({ projectId: 'prj_big', status: 'blocked' as const })),
        ...Array.from({ length: 4 }, () => ({ projectId: 'prj_small', status: 'open' as const })),
      ];
      for (const [i, row] of rows.entries()) {
        const severity = i % 20 === 0 ? ('critical' as const) : ('high' as const);
        await tx.collections.issues.insert(sampleRow('issues', workspaceId, { ...row, severity }));
      }
      // One user's time on one outcome, a day at a time over 30 days.
      for (let day = 1; day <= 30; day++) {
        const date = `2026-11-${String(day).padStart(2, '0')}`;
        await tx.collections.timeEntries.insert(
          sampleRow('timeEntries', workspaceId, { outcomeId: 'out_1', userId: 'usr_1', date }),
        );
      }
    });
  });
  afterAll(async () => {
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Lists `where` (a page of one, so that the total is counted) and returns each query's plan. */
  async function plans(query: Partial<ListQuery<'issues'>>) {
    return plansOf('issues', () =>
      storage.transaction((tx) => tx.collections.issues.list({ workspaceId, limit: 1, ...query })),
    );
  }

  async function plansOf(table: string, list: () => Promise<{ total: number }>) {
    statements.length = 0;
    const page = await list();
    const reader = new Database(filename, { readonly: true });
    const read = statements
      .filter((sql) => new RegExp(`FROM ${table}\\b`).test(sql))
      .map((sql) => ({
        sql,
        plan: queryPlan(reader, sql).join('\n'),
      }));
    reader.close();
    return { total: page.total, read };
  }

  it.each([
    [{ projectId: 'prj_big', status: 'blocked' }, 'issues_by_status', 4],
    [{ projectId: 'prj_small', status: 'open' }, 'issues_by_project_id', 4],
    [{ status: 'open', severity: 'critical' }, 'issues_by_severity', 2],
    [{ projectId: 'prj_big', status: 'open', severity: 'critical' }, 'issues_by_severity', 2],
  ] as const)(
    '%o reads %s and takes its total from the counts kept for the pair or the three',
    async (where, index, total) => {
      const { total: counted, read } = await plans({ where });
      expect(counted).toBe(total);
      const page = read.find(({ sql }) => sql.startsWith('SELECT data'));
      expect(page?.plan).toContain(`USING INDEX ${index} (workspace_id=?`);
      expect(page?.plan).not.toContain('TEMP B-TREE');
      // Two of status, severity and project, or all three: counted on write (migrations 26 and
      // 28), not on read.
      expect(read.filter(({ sql }) => sql.startsWith('SELECT COUNT(*)'))).toEqual([]);
    },
  );

  it.each([
    // None of a list: no count keeps it with the others.
    [{ projectId: 'prj_big', status: { not: ['blocked'] }, severity: 'critical' }, 'issues_by_severity', 2],
  ] as const)('%o reads %s and counts in it alone', async (where, index, total) => {
    const { total: counted, read } = await plans({ where });
    expect(counted).toBe(total);
    const page = read.find(({ sql }) => sql.startsWith('SELECT data'));
    const count = read.find(({ sql }) => sql.startsWith('SELECT COUNT(*)'));
    expect(page?.plan).toContain(`USING INDEX ${index} (workspace_id=?`);
    expect(page?.plan).not.toContain('TEMP B-TREE');
    expect(count?.plan).toContain(`USING COVERING INDEX ${index} (workspace_id=?`);
  });

  it('checks updatedSince in the entries of an index, not in every row', async () => {
    const { total, read } = await plans({ updatedSince: '2000-01-01T00:00:00.000Z' });
    expect(total).toBe(48);
    // Few changed (migration 11): counted in the index by update time (updated-since-plans.test.ts).
    const count = read.find(({ sql }) => sql.startsWith('SELECT COUNT(*) AS total'));
    expect(count?.plan).toContain(
      'USING COVERING INDEX issues_sorted_updated (workspace_id=? AND updated_at>?)',
    );
  });

  it('leaves a range bound to its own index: a week of time entries is read by date', async () => {
    const { total, read } = await plansOf('time_entries', () =>
      storage.transaction((tx) =>
        tx.collections.timeEntries.list({
          workspaceId,
          where: { outcomeId: 'out_1', userId: 'usr_1' },
          range: { date: { gte: '2026-11-10', lte: '2026-11-16' } },
          sum: 'minutes',
          limit: 1,
        }),
      ),
    );
    expect(total).toBe(7);
    expect(read.length).toBeGreaterThan(0);
    for (const { sql, plan } of read) {
      expect(sql).not.toContain('INDEXED BY');
      expect(plan).toContain('time_entries_by_date');
    }
  });

  it('has a list index named <table>_by_<column> for every counted column, as INDEXED BY needs', () => {
    const reader = new Database(filename, { readonly: true });
    const indexes = new Set(
      reader.prepare("SELECT name FROM sqlite_schema WHERE type = 'index'").pluck().all() as string[],
    );
    reader.close();
    const missing = Object.entries(countedColumns).flatMap(([table, columns]) =>
      columns.map((column) => `${table}_by_${column}`).filter((name) => !indexes.has(name)),
    );
    expect(missing).toEqual([]);
  });
});
