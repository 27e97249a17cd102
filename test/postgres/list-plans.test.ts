import pg from 'pg';
import { afterEach, expect, it } from 'vitest';
import { postgresStorage } from '../../src/adapters/postgres/index.js';
import { projects } from '../../src/core/index.js';
import { postgresSchemaAt } from '../support/earlier-schema.js';
import { createIssueRequest } from '../support/issue-request.js';
import { observeClients } from '../support/observed-pool.js';
import { describeOnPostgres, dropSchema, freshSchema, requireDatabaseUrl } from '../support/postgres.js';
import { workspaceTracker } from '../support/workspace-tracker.js';

interface Sent {
  text: string;
  values: unknown[];
}

/** A pool of two clients (one listens for changes, one runs the transactions) whose statements (text and parameters) are kept in `sent`. */
function recordingPool() {
  const pool = new pg.Pool({ connectionString: requireDatabaseUrl(), max: 2 });
  const sent: Sent[] = [];
  observeClients(pool, (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      const [first, second] = args;
      if (typeof first === 'string') sent.push({ text: first, values: Array.isArray(second) ? second : [] });
      else {
        const config = first as { text?: string; values?: unknown[] };
        sent.push({ text: String(config.text), values: config.values ?? [] });
      }
      return query(...args);
    };
  });
  return { pool, sent };
}

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

describeOnPostgres('the plans of issue lists on PostgreSQL', () => {
  let schema = '';
  let admin: pg.Client | undefined;
  afterEach(async () => {
    await admin?.end();
    admin = undefined;
    if (schema) await dropSchema(schema);
    schema = '';
  });

  it('read a page sorted by dueOn or estimate from its index alone (the entries a filter passes over need no row), and never start parallel workers', async () => {
    schema = freshSchema();
    const { pool, sent } = recordingPool();
    const storage = postgresStorage({ pool, schema });
    await storage.ready();
    const { tracker, token } = await workspaceTracker(storage, 'plans');
    try {
      const run = (name: string) =>
        tracker.run({ workspaceSlug: 'plans' }, (ctx) => projects.create(ctx, { name }));
      const dated = await run('Dated');
      const undated = await run('Undated');
      // The issues with a value come first in ascending order, and none of them is the filter's.
      for (let i = 0; i < 120; i++) {
        const made = await tracker.handle(
          createIssueRequest(token, {
            projectId: dated.id,
            title: `Dated ${i}`,
            dueOn: `2026-0${1 + (i % 9)}-1${i % 10}`,
            estimate: i + 1,
          }),
        );
        expect(made.status).toBe(201);
      }
      const expected: string[] = [];
      for (let i = 0; i < 12; i++) {
        const made = await tracker.handle(
          createIssueRequest(token, { projectId: undated.id, title: `Undated ${i}` }),
        );
        expect(made.status).toBe(201);
        expected.push((JSON.parse(String(made.body)) as { id: string }).id);
      }
      expected.sort();
      admin = new pg.Client({ connectionString: requireDatabaseUrl() });
      await admin.connect();
      await admin.query(`SET search_path TO "${schema}"`);
      await admin.query('ANALYZE issues');
      // The plan that reads the walk's entries without their rows, where one exists: a few hundred
      // rows would otherwise be read whole and sorted, and whether a page of the table is marked
      // as seen by every transaction (what lets an index-only scan skip its rows) depends on the
      // other transactions of the server at the time.
      await admin.query(
        'SET enable_seqscan TO off; SET enable_sort TO off; SET enable_indexscan TO off; SET enable_bitmapscan TO off',
      );

      for (const field of ['dueOn', 'estimate']) {
        sent.length = 0;
        const listed = await tracker.handle({
          method: 'GET',
          path: `/api/v1/issues?sort=${field}&projectId=${undated.id}&limit=5`,
          headers: { authorization: `Bearer ${token}` },
        });
        expect(listed.status).toBe(200);
        const page = JSON.parse(String(listed.body)) as { data: { id: string }[]; total: number };
        expect(page.data.map((issue) => issue.id)).toEqual(expected.slice(0, 5));
        expect(page.total).toBe(12);

        const statement = sent.find((s) => s.text.includes('ORDER BY') && s.text.includes('LIMIT'));
        expect(statement, sent.map((s) => s.text).join('\n')).toBeDefined();
        const explained = await admin.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(
          `EXPLAIN (FORMAT JSON) ${(statement as Sent).text}`,
          (statement as Sent).values,
        );
        const [explanation] = explained.rows[0]?.['QUERY PLAN'] ?? [];
        const nodes = explanation ? nodesOf(explanation.Plan) : [];
        const index = field === 'dueOn' ? 'issues_sorted_due_on' : 'issues_sorted_estimate';
        const walk = nodes.find((node) => node['Index Name'] === index);
        expect(walk?.['Node Type'], JSON.stringify(nodes)).toBe('Index Only Scan');
      }

      // The storage's connections plan no parallel workers.
      const setting = await pool.query<{ max_parallel_workers_per_gather: string }>(
        'SHOW max_parallel_workers_per_gather',
      );
      expect(setting.rows[0]?.max_parallel_workers_per_gather).toBe('0');
    } finally {
      await storage.close();
      await pool.end();
    }
  });

  it('keep the statistics of the due day through migration 33, which recreates its index', async () => {
    schema = freshSchema();
    // A schema an earlier release made, with issues, analyzed as autovacuum leaves it.
    await postgresSchemaAt(schema, 32, async (client) => {
      await client.query(
        'INSERT INTO issues (id, workspace_id, created_at, updated_at, version, project_id, status, severity, ' +
          'number, search_text, data, account_id, due_on) ' +
          "SELECT 'iss_' || g, 'ws_1', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', 1, 'prj_1', " +
          "'open', 'high', g, '', '{}', 'acct_1', CASE WHEN g % 50 = 0 THEN '2026-06-01' END " +
          'FROM generate_series(1, 2000) g',
      );
      await client.query('ANALYZE issues');
    });
    const storage = postgresStorage({ connectionString: requireDatabaseUrl(), schema, poolMax: 2 });
    try {
      await storage.ready();
    } finally {
      await storage.close();
    }
    admin = new pg.Client({ connectionString: requireDatabaseUrl() });
    await admin.connect();
    // The statistics of an expression index live with the index: the planner's only view of how
    // many issues a due range holds (without them it guesses a third of the table).
    const { rows } = await admin.query<{ kept: number }>(
      "SELECT COUNT(*)::int AS kept FROM pg_stats WHERE schemaname = $1 AND tablename IN ('issues_sorted_due_on', 'issues_sorted_estimate')",
      [schema],
    );
    expect(rows[0]?.kept).toBe(2);
  });
});
