import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { AccountRoutes } from '../../src/adapters/postgres/account-routes.js';
import type { Conn } from '../../src/adapters/postgres/connection.js';
import { tableKinds } from '../../src/adapters/postgres/distribution.js';
import { postgresStorage } from '../../src/adapters/postgres/index.js';
import { transactionRunner } from '../../src/adapters/postgres/transaction.js';
import type { StorageTx } from '../../src/core/index.js';
import { checkSql, loadSqlParser } from '../support/distribution-check.js';
import {
  describeOnPostgres,
  distributionCheck,
  dropSchema,
  freshSchema,
  requireDatabaseUrl,
  tempPostgresStorage,
} from '../support/postgres.js';
import { recordingInto, StatementRecorder } from '../support/statement-recorder.js';

/**
 * The distribution check itself (test/support/distribution-check.ts, statement-recorder.ts): it
 * finds what would not stay inside one account, says which statement and which test, and
 * passes what would. The suites run it over every statement the adapter sends.
 */
describe('the distribution check', () => {
  beforeAll(() => loadSqlParser());

  const problemsOf = (sql: string) => checkSql(sql).map((offense) => offense.problem);

  it('reports a read of a tenant table without an account_id condition, with the statement', () => {
    const sql = 'SELECT * FROM issues WHERE id = $1';
    expect(checkSql(sql)).toEqual([{ statement: sql, problem: 'issues has no account_id = $n condition' }]);
    // An account condition that does not bind (under OR, or a set of accounts) is none.
    expect(problemsOf('SELECT * FROM issues WHERE account_id = $1 OR id = $2')).toHaveLength(1);
    expect(problemsOf('SELECT * FROM issues WHERE account_id = ANY($1)')).toHaveLength(1);
    expect(problemsOf('SELECT * FROM issues WHERE account_id IN ($1, $2)')).toHaveLength(1);
    expect(problemsOf('UPDATE comments SET data = $2 WHERE id = $1')).toHaveLength(1);
    expect(problemsOf('DELETE FROM signals WHERE occurred_at < $1')).toHaveLength(1);
  });

  it('reports a join of two tenant tables without account_id equality between them', () => {
    const sql =
      'SELECT i.id FROM issues i JOIN workspaces w ON w.id = i.workspace_id WHERE i.account_id = $1 AND w.account_id = $2';
    expect(checkSql(sql)).toEqual([
      {
        statement: sql,
        problem: 'issues (i) and workspaces (w) are joined without account_id equality between them',
      },
    ]);
    // Equal to one account only through the other table: routed, but still the join lacks nothing.
    expect(
      problemsOf(
        'SELECT i.id FROM issues i JOIN workspaces w ON w.id = i.workspace_id WHERE i.account_id = $1',
      ),
    ).toEqual([
      'workspaces (w) has no account_id = $n condition',
      'issues (i) and workspaces (w) are joined without account_id equality between them',
    ]);
    // In a correlated subquery too.
    expect(
      problemsOf(
        'SELECT * FROM issues i WHERE i.account_id = $1 AND EXISTS (SELECT 1 FROM comments c WHERE c.issue_id = i.id)',
      ),
    ).toEqual(['comments (c) has no account_id = $n condition']);
  });

  it('reports an insert into a tenant table without its account_id column', () => {
    const sql = 'INSERT INTO issues (workspace_id, id, data) VALUES ($1, $2, $3)';
    expect(checkSql(sql)).toEqual([
      { statement: sql, problem: 'INSERT INTO issues without its account_id column' },
    ]);
  });

  it('reports the statement of a multi-statement text that fails, and tables the list does not know', () => {
    expect(checkSql("BEGIN; SET search_path TO x; DELETE FROM tokens WHERE id = 'tok_1'")).toEqual([
      {
        statement: "DELETE FROM tokens WHERE id = 'tok_1'",
        problem: 'tokens has no account_id = $n condition',
      },
    ]);
    expect(problemsOf('SELECT purged_through FROM signal_purges')).toEqual([
      'signal_purges is not in tableKinds (src/adapters/postgres/distribution.ts)',
    ]);
    expect(problemsOf('TRUNCATE issues')).toEqual(['TRUNCATE issues reaches every account']);
    expect(problemsOf('SELECT * FROM rate_limits')).toEqual(['rate_limits has no key = $n condition']);
  });

  it('passes statements that stay inside one account, and those marked as spanning accounts', () => {
    const good = [
      'SELECT * FROM issues WHERE account_id = $1 AND id = $2',
      "BEGIN; SET search_path TO \"s\"; UPDATE issues SET data = 'x' WHERE account_id = 'acct_1' AND id = 'iss_1'",
      'SELECT * FROM issues WHERE account_id = $1::text COLLATE "C" AND id = $2',
      'INSERT INTO issues (account_id, workspace_id, id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
      'INSERT INTO comments (account_id, id) SELECT $1, $2 WHERE EXISTS (SELECT 1 FROM issues WHERE account_id = $1 AND id = $3)',
      'SELECT i.id FROM issues i JOIN workspaces w ON w.account_id = i.account_id AND w.id = i.workspace_id WHERE i.account_id = $1',
      'SELECT i.id FROM issues i, comments c WHERE i.account_id = $1 AND c.account_id = $1 AND c.issue_id = i.id',
      'SELECT a.name FROM accounts a JOIN workspaces w ON w.account_id = a.id WHERE w.account_id = $1',
      'UPDATE accounts SET last_sequence = last_sequence + 1 WHERE id = $1 RETURNING last_sequence',
      'WITH found AS (SELECT id FROM issues WHERE account_id = $1) SELECT * FROM found',
      'SELECT * FROM issues i WHERE i.account_id = $1 AND EXISTS (SELECT 1 FROM comments c WHERE c.account_id = i.account_id AND c.issue_id = i.id)',
      'SELECT count(*) FROM (SELECT 1 FROM signals WHERE account_id = $1 AND sequence > $2) s',
      'SELECT w.id FROM workspace_routes r JOIN workspaces w ON w.account_id = r.account_id AND w.id = r.workspace_id WHERE r.slug = $1',
      'SELECT * FROM users WHERE email = $1',
      'SELECT account_id FROM token_routes WHERE hash = $1',
      'SELECT * FROM rate_limits WHERE key = $1',
      'SELECT pg_notify($1, $2)',
      'SELECT * FROM issues WHERE (account_id, id) = ($1, $2)',
      'SELECT * FROM issues WHERE account_id IN ($1) AND id = $2',
      '/* all accounts: the operator lists every workspace */ SELECT id, slug FROM workspaces ORDER BY id',
      "BEGIN; /* all accounts: purge */ DELETE FROM signals WHERE occurred_at < '2026-01-01'",
      'BEGIN; SET search_path TO "s"; COMMIT',
    ];
    for (const sql of good) expect({ sql, offenses: checkSql(sql) }).toEqual({ sql, offenses: [] });
  });

  it('names each offending statement once, with the tests that sent it', () => {
    const recorder = new StatementRecorder();
    recorder.record('SELECT * FROM issues WHERE id = $1', 'a.test.ts > reads an issue');
    recorder.record('SELECT * FROM issues WHERE id = $1', 'b.test.ts > reads it again');
    recorder.record('SELECT * FROM issues WHERE account_id = $1 AND id = $2', 'c.test.ts > reads well');
    const report = recorder.report() ?? '';
    expect(report).toContain('1 statement(s)');
    expect(report).toContain('issues has no account_id = $n condition (sent 2 times)');
    expect(report).toContain('   SELECT * FROM issues WHERE id = $1');
    expect(report).toContain('sent by: a.test.ts > reads an issue');
    expect(report).toContain('sent by: b.test.ts > reads it again');
    expect(report).not.toContain('c.test.ts');
    expect(new StatementRecorder().report()).toBeNull();
  });

  it('knows every table of the design, each of one kind', () => {
    for (const table of ['accounts', 'issues', 'signals', 'counters', 'deliveries', 'storage_time_shares']) {
      expect(tableKinds[table]?.kind).toBe('tenant');
    }
    for (const table of [
      'users',
      'sessions',
      'schema_migrations',
      'workspace_routes',
      'token_routes',
      'due_accounts',
    ]) {
      expect(tableKinds[table]).toEqual({ kind: 'reference' });
    }
    expect(tableKinds.rate_limits).toEqual({ kind: 'own-key', column: 'key' });
    expect(tableKinds.accounts).toEqual({ kind: 'tenant', column: 'id' });
  });
});

describeOnPostgres('the distribution check in the PostgreSQL suites', () => {
  it('reports a statement the adapter sends that reaches every account, with this test', async () => {
    const schema = freshSchema();
    const storage = postgresStorage({ connectionString: requireDatabaseUrl(), schema, poolMax: 1 });
    const pool = new pg.Pool({ connectionString: requireDatabaseUrl(), max: 1 });
    try {
      await storage.ready();
      // The adapter's own transactions, given a store that sends a statement of the test's.
      const runner = transactionRunner({
        pool,
        searchPathSql: `SET search_path TO "${schema}"`,
        routes: new AccountRoutes(),
        maxAttempts: 1,
        makeTx: (conn) => ({ conn }) as unknown as StorageTx,
        committed: () => {},
      });
      const recorder = new StatementRecorder();
      const sql = 'SELECT id FROM issues WHERE id = $1';
      await recordingInto(recorder, () =>
        runner.run((tx) => (tx as unknown as { conn: Conn }).conn.rows(sql, ['iss_1']), 'read'),
      );
      const report = recorder.report() ?? '';
      expect(report).toContain('issues has no account_id = $n condition (sent 1 time)');
      // As sent: with the search_path ahead of it, its parameter written in.
      expect(report).toContain("   SELECT id FROM issues WHERE id = 'iss_1'");
      expect(report).toContain(
        'sent by: test/postgres/distribution-check.test.ts > the distribution check in the PostgreSQL suites > ' +
          'reports a statement the adapter sends that reaches every account, with this test',
      );
    } finally {
      await pool.end();
      await storage.close();
      await dropSchema(schema);
    }
  });

  it('sees the statements the adapter sends (and not the tests’ own)', async () => {
    const recorder = distributionCheck as StatementRecorder;
    expect(recorder).toBeDefined();
    const before = recorder.checked;
    const storage = await tempPostgresStorage();
    try {
      await storage.transaction((tx) => tx.tenancy.getUserByEmail('nobody@example.com'), { mode: 'read' });
    } finally {
      await storage.close();
    }
    expect(recorder.checked).toBeGreaterThan(before);
    // A test's own statements (here an unfiltered read of its own) are not the adapter's.
    const own = new pg.Client({ connectionString: requireDatabaseUrl() });
    await own.connect();
    try {
      const after = recorder.checked;
      await own.query('SELECT count(*) FROM pg_class WHERE relname = $1', ['issues']);
      const pool = new pg.Pool({ connectionString: requireDatabaseUrl(), max: 1 });
      await pool.query('SELECT 1');
      await pool.end();
      expect(recorder.checked).toBe(after);
    } finally {
      await own.end();
    }
  });
});
