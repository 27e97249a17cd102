import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/adapters/sqlite/engine/connection.js';
import {
  commutesWithBookkeeping,
  DeferredBookkeeping,
} from '../../src/adapters/sqlite/engine/deferred-bookkeeping.js';
import { statementEffects } from '../../src/adapters/sqlite/engine/statement-effects.js';
import { sqliteStorage } from '../../src/adapters/sqlite/index.js';
import { migrate } from '../../src/adapters/sqlite/migrate.js';
import { sampleRow, sampleSignal } from '../conformance/fixtures.js';

/** The statements the adapter runs with bookkeeping pending, and those it flushes before. */
describe('which statements may run while bookkeeping waits', () => {
  const db = openDatabase(':memory:');
  migrate(db);
  db.exec(
    'CREATE TABLE with_insert_trigger (x TEXT); CREATE TABLE log (x TEXT); CREATE TABLE logged (x TEXT); CREATE TABLE chained (x TEXT);',
  );
  // Its trigger counts into a bookkeeping table: the totals change.
  db.exec(
    "CREATE TRIGGER counts_inserts AFTER INSERT ON with_insert_trigger BEGIN INSERT INTO list_counts (collection, workspace_id, field, value, n) VALUES ('x', 'w', '', '', 1) ON CONFLICT (collection, workspace_id, field, value) DO UPDATE SET n = n + 1; END;",
  );
  // Its trigger writes a table of its own (as issue_labels' writes issue_label_counts): no total.
  db.exec('CREATE TRIGGER logs_inserts AFTER INSERT ON logged BEGIN INSERT INTO log VALUES (new.x); END;');
  // Its trigger writes a table whose own trigger counts: what that reaches is not read, so it flushes.
  db.exec(
    'CREATE TRIGGER chains_inserts AFTER INSERT ON chained BEGIN INSERT INTO with_insert_trigger VALUES (new.x); END;',
  );
  const effectOf = statementEffects(db);
  const judge = (sql: string) => commutesWithBookkeeping(sql, effectOf(sql, db.prepare(sql)));

  it.each([
    'SELECT data FROM issues WHERE id = ? AND workspace_id = ?',
    'INSERT INTO issues (id, workspace_id, created_at, updated_at, version, project_id, outcome_id, status, severity, assignee_id, number, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    'INSERT INTO signals (id, account_id, type, resource_id, occurred_at, data) VALUES (?, ?, ?, ?, ?, ?)',
    'INSERT INTO idempotency_keys (workspace_id, key, created_at, data) VALUES (?, ?, ?, ?) ON CONFLICT (workspace_id, key) DO UPDATE SET data = excluded.data',
    "SELECT seq FROM sqlite_sequence WHERE name = 'signals'",
    'INSERT INTO main.signals (id, account_id, type, resource_id, occurred_at, data) VALUES (?, ?, ?, ?, ?, ?)',
    'INSERT INTO logged VALUES (?)',
    'INSERT OR IGNORE INTO issue_labels (workspace_id, label, issue_pk) SELECT ?, value, ? FROM json_each(?)',
  ])('runs with it pending: %s', (sql) => {
    expect(judge(sql)).toBe(true);
  });

  it.each([
    // Reads and writes of the bookkeeping tables themselves.
    'SELECT n FROM list_counts WHERE collection = ? AND workspace_id = ? AND field = ? AND value = ?',
    'SELECT COALESCE(SUM(n), 0) FROM signal_counts WHERE account_id = ?',
    'SELECT EXISTS (SELECT 1 FROM search_pending)',
    'SELECT value FROM counters WHERE name = ?',
    'INSERT INTO counters (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value',
    // Updates and deletes of counted rows: their triggers take rows off the totals.
    'UPDATE issues SET status = ? WHERE id = ?',
    'DELETE FROM issues WHERE id = ?',
    'DELETE FROM idempotency_keys WHERE created_at < ?',
    // An insert whose trigger reaches a total; an upsert that may fire update triggers.
    'INSERT INTO with_insert_trigger VALUES (?)',
    'INSERT INTO chained VALUES (?)',
    'INSERT INTO main.with_insert_trigger VALUES (?)',
    'INSERT INTO "main"."with_insert_trigger" VALUES (?)',
    'INSERT INTO main.issues (id, workspace_id, created_at, updated_at, version, project_id, outcome_id, status, severity, assignee_id, number, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET status = excluded.status',
    'SELECT n FROM main.list_counts',
    'INSERT INTO issues (id, workspace_id, created_at, updated_at, version, project_id, outcome_id, status, severity, assignee_id, number, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET status = excluded.status',
    'REPLACE INTO issues (id, workspace_id, created_at, updated_at, version, project_id, outcome_id, status, severity, assignee_id, number, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  ])('flushes it first: %s', (sql) => {
    expect(judge(sql)).toBe(false);
  });
});

describe('bookkeeping kept for the end of a write group', () => {
  it('adds thirty inserts of one transaction to each total once, and a read in the transaction sees them', async () => {
    const statements: string[] = [];
    const storage = sqliteStorage({ filename: ':memory:', onStatement: (sql) => statements.push(sql) });
    // What the migrations ran is not the transaction's.
    statements.length = 0;
    await storage.transaction(async (tx) => {
      for (let i = 0; i < 30; i++) {
        await tx.collections.issues.insert(sampleRow('issues', 'wsp_1', { status: 'open' }));
      }
      const page = await tx.collections.issues.list({
        workspaceId: 'wsp_1',
        where: { status: 'open' },
        limit: 5,
      });
      expect(page.total).toBe(30);
    });
    const countWrites = statements.filter((sql) => sql.startsWith('INSERT INTO list_counts'));
    // The workspace's total, one per counted column (project, outcome, status, severity, assignee)
    // and one per counted pair (status and severity, status and project, severity and project),
    // and one for all three (migration 28).
    expect(countWrites).toHaveLength(10);
    expect(statements.filter((sql) => sql.startsWith('INSERT OR IGNORE INTO search_pending'))).toHaveLength(
      1,
    );
    await storage.close();
  });

  it('keeps rows apart whatever characters their counted values hold', async () => {
    const storage = sqliteStorage({ filename: ':memory:' });
    await storage.transaction(async (tx) => {
      const issues = tx.collections.issues;
      await issues.insert(
        sampleRow('issues', 'wsp_1', { projectId: 'prj_a\u0001prj_b', outcomeId: 'out_c' }),
      );
      await issues.insert(
        sampleRow('issues', 'wsp_1', { projectId: 'prj_a', outcomeId: 'prj_b\u0001out_c' }),
      );
      expect(await issues.count('wsp_1', { projectId: 'prj_a' })).toBe(1);
      expect(await issues.count('wsp_1', { projectId: 'prj_a\u0001prj_b' })).toBe(1);
      expect(await issues.count('wsp_1', { outcomeId: 'out_c' })).toBe(1);
    });
    await storage.close();
  });

  it("counts a transaction's own signals in its reads of the kept counts", async () => {
    const storage = sqliteStorage({ filename: ':memory:' });
    await storage.transaction(async (tx) => {
      for (let i = 0; i < 3; i++) await tx.signals.append(sampleSignal('acc_1', { type: 'issue.created' }));
      await tx.signals.append(sampleSignal('acc_1', { type: 'issue.updated' }));
      expect(await tx.signals.count({ accountId: 'acc_1' })).toBe(4);
      expect(await tx.signals.count({ accountId: 'acc_1', types: ['issue.created'] })).toBe(3);
    });
    await storage.close();
  });

  it('carries up to 64 concurrent write transactions in one COMMIT', async () => {
    const statements: string[] = [];
    const storage = sqliteStorage({ filename: ':memory:', onStatement: (sql) => statements.push(sql) });
    const writes = (n: number) =>
      Promise.all(
        Array.from({ length: n }, () =>
          storage.transaction((tx) => tx.collections.issues.insert(sampleRow('issues', 'wsp_1'))),
        ),
      );
    statements.length = 0;
    await writes(64);
    expect(statements.filter((sql) => sql === 'BEGIN IMMEDIATE')).toHaveLength(1);
    statements.length = 0;
    await writes(65);
    expect(statements.filter((sql) => sql === 'BEGIN IMMEDIATE')).toHaveLength(2);
    await storage.close();
  });

  it('forgets what it holds on discard, and writes nothing when empty', () => {
    const db = openDatabase(':memory:');
    migrate(db);
    const bookkeeping = new DeferredBookkeeping(db);
    db.exec('BEGIN');
    bookkeeping.countListedRow({ collection: 'projects', workspaceId: 'wsp_1', columns: [], values: [] });
    expect(bookkeeping.nextCounter('wsp_1', 'c')).toBe(1);
    expect(bookkeeping.isEmpty).toBe(false);
    bookkeeping.discard();
    expect(bookkeeping.isEmpty).toBe(true);
    bookkeeping.flush();
    expect(db.prepare('SELECT COUNT(*) FROM list_counts').pluck().get()).toBe(0);
    expect(bookkeeping.nextCounter('wsp_1', 'c')).toBe(1);
    expect(bookkeeping.nextCounter('wsp_1', 'c')).toBe(2);
    bookkeeping.flush();
    expect(db.prepare("SELECT value FROM counters WHERE name = 'c'").pluck().get()).toBe(2);
    // Read again after a flush: the table holds what was counted.
    expect(bookkeeping.nextCounter('wsp_1', 'c')).toBe(3);
    db.exec('COMMIT');
    db.close();
  });

  /**
   * A storage whose totals for workspace `wsp_refused` cannot be written (a trigger refuses
   * them): a flush that reaches one fails after writing what came before it.
   */
  async function refusingStorage() {
    const dir = mkdtempSync(join(tmpdir(), 'ot-bookkeeping-'));
    const filename = join(dir, 'tracker.db');
    await sqliteStorage({ filename }).close();
    const other = new Database(filename);
    other.exec(
      "CREATE TRIGGER refuse_total BEFORE INSERT ON list_counts WHEN new.workspace_id = 'wsp_refused' " +
        "BEGIN SELECT RAISE(ABORT, 'this total cannot be written'); END;",
    );
    other.close();
    const storage = sqliteStorage({ filename });
    const insertInto = (workspaceId: string) =>
      storage.transaction((tx) => tx.collections.issues.insert(sampleRow('issues', workspaceId)));
    /** Rows and the workspace total, as a separate connection sees them once it is closed. */
    const settled = async () => {
      await storage.close();
      const check = new Database(filename, { readonly: true });
      const count = (sql: string, workspaceId: string) => check.prepare(sql).pluck().get(workspaceId);
      const of = (workspaceId: string) => ({
        rows: count('SELECT COUNT(*) FROM issues WHERE workspace_id = ?', workspaceId),
        total:
          count(
            "SELECT n FROM list_counts WHERE collection = 'issues' AND workspace_id = ? AND field = ''",
            workspaceId,
          ) ?? 0,
      });
      const result = { counted: of('wsp_counted'), refused: of('wsp_refused') };
      check.close();
      rmSync(dir, { recursive: true, force: true });
      return result;
    };
    return { storage, insertInto, settled };
  }

  const statuses = (outcomes: PromiseSettledResult<unknown>[]) => outcomes.map((outcome) => outcome.status);

  it('runs a group again, each member alone, when a flush in the middle of a member fails: only the culprit fails', async () => {
    const { storage, insertInto, settled } = await refusingStorage();
    // Queued together: one group. The third only reads a total, which flushes the first two's
    // bookkeeping; the second's fails there, after the first's was written.
    const outcomes = await Promise.allSettled([
      insertInto('wsp_counted'),
      insertInto('wsp_refused'),
      storage.transaction((tx) => tx.collections.issues.list({ workspaceId: 'wsp_counted', limit: 1 })),
    ]);
    // The reader meets a failure that is not its own: all three run again, each in a savepoint,
    // where the second fails at its own flush and the others commit.
    expect(statuses(outcomes)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason).toMatchObject({
      message: expect.stringContaining('this total cannot be written'),
    });
    expect(await settled()).toEqual({ counted: { rows: 1, total: 1 }, refused: { rows: 0, total: 0 } });
  });

  it('runs a group again when its flush before COMMIT fails, and commits the members that did nothing wrong', async () => {
    const { insertInto, settled } = await refusingStorage();
    const outcomes = await Promise.allSettled([
      insertInto('wsp_counted'),
      insertInto('wsp_refused'),
      insertInto('wsp_counted'),
    ]);
    expect(statuses(outcomes)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await settled()).toEqual({ counted: { rows: 2, total: 2 }, refused: { rows: 0, total: 0 } });
  });

  it('commits nothing half-counted when a member swallows the failure of a flush', async () => {
    const { storage, insertInto, settled } = await refusingStorage();
    const outcomes = await Promise.allSettled([
      insertInto('wsp_counted'),
      insertInto('wsp_refused'),
      storage.transaction(async (tx) => {
        await tx.collections.issues.count('wsp_counted', {}).catch(() => 'swallowed');
        await tx.collections.issues.insert(sampleRow('issues', 'wsp_counted'));
      }),
    ]);
    // The failure stays with the group until it is rolled back: the reader cannot hide it.
    expect(statuses(outcomes)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await settled()).toEqual({ counted: { rows: 2, total: 2 }, refused: { rows: 0, total: 0 } });
  });
});
