import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqliteStorage } from '../../src/adapters/sqlite/index.js';
import type { Issue, ListQuery, Storage } from '../../src/core/index.js';
import { at, sampleRow } from '../conformance/fixtures.js';
import { queryPlan } from '../support/query-plan.js';

/**
 * `updatedSince` on issues (migration 11): when few issues changed since then, they are counted,
 * read and sorted from the index by update time, not found by walking every issue of the
 * workspace; when many did, a page is walked in creation order through `recent`, never read
 * whole through the index by update time and sorted. Either way the answer is the same.
 */
describe('lists of issues changed since a time, on SQLite', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ot-updated-plans-'));
  const filename = join(dir, 'tracker.db');
  const workspaceId = 'wsp_updated';
  let storage: Storage;
  const statements: string[] = [];
  const issues: Issue[] = [];
  // Over 2,000 issues (the most the index by update time is sorted from): created a second apart,
  // each changed at its creation but for five old ones changed late, two of them blocked.
  const count = 2_100;

  beforeAll(async () => {
    storage = sqliteStorage({ filename, onStatement: (sql) => statements.push(sql) });
    for (let i = 0; i < count; i++) {
      const lateChange = i % 400 === 7;
      const row = sampleRow(
        'issues',
        workspaceId,
        { status: lateChange && i < 1000 ? 'blocked' : 'open' },
        at(i),
      ) as Issue;
      issues.push(lateChange ? { ...row, updatedAt: at(100_000 + i) } : row);
    }
    await storage.transaction(async (tx) => {
      for (const issue of issues) await tx.collections.issues.insert(issue);
      // Another workspace's changes are never counted.
      await tx.collections.issues.insert({ ...sampleRow('issues', 'wsp_other'), updatedAt: at(200_000) });
    });
  });
  afterAll(async () => {
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The list as the port answers it, and the plans of the statements that read issues. */
  async function listed(query: Partial<ListQuery<'issues'>>) {
    statements.length = 0;
    const page = await storage.transaction((tx) =>
      tx.collections.issues.list({ workspaceId, limit: 10, ...query }),
    );
    const reader = new Database(filename, { readonly: true });
    const plans = statements
      .filter((sql) => /FROM issues\b/.test(sql) && sql.includes('SELECT data'))
      .map((sql) => queryPlan(reader, sql).join('\n'));
    reader.close();
    return { page, plans };
  }

  /** What the list must answer, worked out from the rows themselves. */
  function expected(since: string, status?: string, after?: Issue) {
    const matching = issues
      .filter((i) => i.updatedAt >= since && (status === undefined || i.status === status))
      .sort((a, b) =>
        a.createdAt === b.createdAt ? b.id.localeCompare(a.id) : b.createdAt.localeCompare(a.createdAt),
      );
    const from = after ? matching.findIndex((i) => i.id === after.id) + 1 : 0;
    return { rows: matching.slice(from, from + 10).map((i) => i.id), total: matching.length };
  }

  it('reads a few changed issues from the index by update time, and pages them', async () => {
    const since = at(100_000);
    const first = await listed({ updatedSince: since, limit: 2 });
    expect(first.page.total).toBe(6);
    expect(first.plans.join('\n')).toContain('USING INDEX issues_sorted_updated');
    const all = expected(since);
    expect(first.page.rows.map((r) => r.id)).toEqual(all.rows.slice(0, 2));
    const last = first.page.rows.at(-1) as Issue;
    const next = await listed({
      updatedSince: since,
      limit: 10,
      after: { createdAt: last.createdAt, id: last.id },
    });
    expect({ rows: next.page.rows.map((r) => r.id), total: next.page.total }).toEqual(
      expected(since, undefined, last),
    );
  });

  it('counts a filter of the few changed issues in the same index', async () => {
    const since = at(100_000);
    const { page, plans } = await listed({ updatedSince: since, where: { status: 'blocked' } });
    expect({ rows: page.rows.map((r) => r.id), total: page.total }).toEqual(expected(since, 'blocked'));
    expect(plans.join('\n')).toContain('USING INDEX issues_sorted_updated');
  });

  it('answers none changed without walking the workspace', async () => {
    const { page, plans } = await listed({ updatedSince: at(500_000) });
    expect(page).toEqual({ rows: [], total: 0 });
    expect(plans.join('\n')).toContain('USING INDEX issues_sorted_updated');
  });

  it('walks many changed issues in creation order through `recent`, and counts them all', async () => {
    const since = at(0);
    const { page, plans } = await listed({ updatedSince: since });
    expect({ rows: page.rows.map((r) => r.id), total: page.total }).toEqual(expected(since));
    expect(page.total).toBe(count);
    expect(plans.join('\n')).toContain('issues_recent');
    expect(plans.join('\n')).not.toContain('issues_sorted_updated');
    expect(plans.join('\n')).not.toContain('TEMP B-TREE');
  });

  it('walks many changed issues of one status through the index of that status', async () => {
    const since = at(0);
    const { page, plans } = await listed({ updatedSince: since, where: { status: 'open' } });
    expect({ rows: page.rows.map((r) => r.id), total: page.total }).toEqual(expected(since, 'open'));
    expect(plans.join('\n')).toContain('issues_by_status');
    expect(plans.join('\n')).not.toContain('issues_sorted_updated');
  });

  it('searches the few changed issues in the index by update time too', async () => {
    const since = at(100_000);
    const { page, plans } = await listed({ updatedSince: since, search: 'login' });
    // Every sample issue is titled "Login fails".
    expect({ rows: page.rows.map((r) => r.id), total: page.total }).toEqual(expected(since));
    expect(plans.join('\n')).toContain('USING INDEX issues_sorted_updated');
  });

  it('walks many changed issues in creation order with a search, or a filter with no index of its own', async () => {
    const since = at(0);
    for (const query of [{ search: 'login' }, { where: { assigneeId: null } }] as const) {
      const { page, plans } = await listed({ updatedSince: since, ...query });
      expect({ rows: page.rows.map((r) => r.id), total: page.total }).toEqual(expected(since));
      expect(plans.join('\n')).not.toContain('issues_sorted_updated');
      expect(plans.join('\n')).not.toContain('TEMP B-TREE');
    }
  });
});
