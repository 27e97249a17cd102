import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { sqliteStorage } from '../../src/adapters/sqlite/index.js';
import type { CollectionName } from '../../src/core/index.js';
import { queryPlan } from '../support/query-plan.js';

/**
 * The list indexes of optional references leave out rows without one (migration 7), so that an
 * insert without the reference writes no entry. A filter naming a reference must still be an
 * index range, never a scan of the workspace's rows: SQLite uses a partial index only for a
 * condition that implies its WHERE, here `column = ?`.
 */
const optional: ReadonlyArray<[CollectionName, string, string, string]> = [
  ['issues', 'outcomeId', 'issues', 'outcome_id'],
  ['issues', 'assigneeId', 'issues', 'assignee_id'],
  ['outcomes', 'ownerId', 'outcomes', 'owner_id'],
  ['decisions', 'outcomeId', 'decisions', 'outcome_id'],
  ['decisions', 'supersededBy', 'decisions', 'superseded_by'],
  ['timeEntries', 'issueId', 'time_entries', 'issue_id'],
];

describe('lists filtered by an optional reference on SQLite', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ot-optional-plans-'));
  const filename = join(dir, 'tracker.db');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each(optional)('%s by %s reads the partial index %s_by_%s', async (name, field, table, column) => {
    const statements: string[] = [];
    const storage = sqliteStorage({ filename, onStatement: (sql) => statements.push(sql) });
    await storage.transaction((tx) =>
      (tx.collections[name] as unknown as { list(query: unknown): Promise<unknown> }).list({
        workspaceId: 'wsp_1',
        where: { [field]: 'ref_1' },
        createdAfter: '2026-01-01T00:00:00.000Z',
        limit: 10,
      }),
    );
    await storage.close();
    const listed = statements.filter((s) => new RegExp(`FROM ${table} WHERE`).test(s));
    expect(listed.length).toBeGreaterThan(0);
    const reader = new Database(filename, { readonly: true });
    const index = reader
      .prepare("SELECT sql FROM sqlite_schema WHERE type = 'index' AND name = ?")
      .pluck()
      .get(`${table}_by_${column}`) as string;
    expect(index).toMatch(new RegExp(`WHERE ${column} IS NOT NULL$`));
    for (const sql of listed) {
      const plan = queryPlan(reader, sql).join('\n');
      expect(plan).toContain(`USING INDEX ${table}_by_${column} (workspace_id=? AND ${column}=?`);
      expect(plan).not.toMatch(new RegExp(`SCAN ${table}\\b`));
    }
    reader.close();
  });
});
