import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqliteStorage } from '../../src/adapters/sqlite/index.js';
import type { Storage } from '../../src/core/index.js';
import { sampleRow } from '../conformance/fixtures.js';

interface Step {
  opcode: string;
  p1: number;
  p2: number;
}

/**
 * A page sorted by `dueOn` or `estimate` (null in most issues, and the issues with a value first
 * in ascending order) checks the list's filters in the entries of the sort's index, and reads a
 * row only for an entry that passes (migration 29): a filter that none of the issues with a
 * value match no longer reads each of their rows before the first match.
 */
describe('pages sorted by a field null in most issues, on SQLite', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ot-nullable-sorts-'));
  const filename = join(dir, 'tracker.db');
  const workspaceId = 'wsp_sorts';
  let storage: Storage;
  const statements: string[] = [];
  const undated: string[] = [];

  beforeAll(async () => {
    storage = sqliteStorage({ filename, onStatement: (sql) => statements.push(sql) });
    await storage.transaction(async (tx) => {
      for (let i = 0; i < 30; i++) {
        await tx.collections.issues.insert(
          sampleRow('issues', workspaceId, {
            projectId: 'prj_dated',
            dueOn: `2026-01-${String(1 + i).padStart(2, '0')}`,
            estimate: i + 1,
          }),
        );
      }
      for (let i = 0; i < 4; i++) {
        const row = sampleRow('issues', workspaceId, { projectId: 'prj_undated' });
        await tx.collections.issues.insert(row);
        undated.push(row.id);
      }
    });
    undated.sort();
  });
  afterAll(async () => {
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    ['dueOn', 'issues_sorted_due_on'],
    ['estimate', 'issues_sorted_estimate'],
  ] as const)('sorted by %s, filters the entries of %s before reading their rows', async (field, index) => {
    statements.length = 0;
    const page = await storage.transaction((tx) =>
      tx.collections.issues.list({
        workspaceId,
        where: { projectId: 'prj_undated', archivedAt: null },
        sort: { field, order: 'asc' },
        limit: 2,
      }),
    );
    expect(page.rows.map((row) => row.id)).toEqual(undated.slice(0, 2));
    expect(page.total).toBe(4);

    const sql = statements.find((s) => s.startsWith('SELECT data') && s.includes('ORDER BY'));
    expect(sql, statements.join('\n')).toBeDefined();
    const reader = new Database(filename, { readonly: true });
    try {
      const root = reader.prepare('SELECT rootpage FROM sqlite_master WHERE name = ?').pluck().get(index);
      const program = reader.prepare(`EXPLAIN ${sql}`).all() as Step[];
      const cursor = program.find((step) => step.opcode === 'OpenRead' && step.p2 === root)?.p1;
      expect(cursor, `${index} is read`).toBeDefined();
      // The index's columns: workspace, key, id, then project (3) and archived (6).
      const readFromIndex = program
        .filter((step) => step.opcode === 'Column' && step.p1 === cursor)
        .map((step) => step.p2);
      expect(readFromIndex).toEqual(expect.arrayContaining([3, 6]));
      // The row is sought only once the entry has passed them.
      expect(program.map((step) => step.opcode)).toContain('DeferredSeek');
    } finally {
      reader.close();
    }
  });
});
