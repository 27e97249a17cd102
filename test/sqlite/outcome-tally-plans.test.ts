import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { sqliteStorage } from '../../src/adapters/sqlite/index.js';
import { queryPlan } from '../support/query-plan.js';

/**
 * An outcome's summary counts its live issues by status and severity. That tally reads the index
 * in that order (migration 24) and groups as it walks: no sort of every issue of the outcome
 * (a temporary B-tree), which cost 4 of the summary's 16 ms at 10,000 issues.
 */
describe('the tally of an outcome’s issues on SQLite', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ot-tally-plans-'));
  const filename = join(dir, 'tracker.db');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const tallied = async (where: Record<string, unknown>, by: string[]) => {
    const statements: string[] = [];
    const storage = sqliteStorage({ filename, onStatement: (sql) => statements.push(sql) });
    await storage.transaction((tx) => tx.collections.issues.tally('wsp_1', where as never, by as never));
    await storage.close();
    const [sql] = statements.filter((s) => /COUNT\(\*\) AS n/.test(s));
    if (sql === undefined) throw new Error(`no tally among ${statements.join('\n')}`);
    const reader = new Database(filename, { readonly: true });
    const plan = queryPlan(reader, sql).join('\n');
    reader.close();
    return plan;
  };

  it('of the live issues by status and severity reads issues_tally_by_outcome_id, grouping as it walks', async () => {
    const plan = await tallied({ outcomeId: 'out_1', archivedAt: null }, ['status', 'severity']);
    expect(plan).toContain('USING INDEX issues_tally_by_outcome_id (workspace_id=? AND outcome_id=?)');
    expect(plan).not.toContain('TEMP B-TREE');
  });

  it('of every issue, archived ones included, reads the outcome’s list index (the tally index holds live rows only)', async () => {
    const plan = await tallied({ outcomeId: 'out_1' }, ['status', 'severity']);
    expect(plan).toContain('issues_by_outcome_id');
  });
});
