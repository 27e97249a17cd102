import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { distribute } from '../../src/adapters/postgres/distribute.js';
import { tableKinds } from '../../src/adapters/postgres/distribution.js';
import { postgresStorage } from '../../src/adapters/postgres/index.js';
import { migrate } from '../../src/adapters/postgres/migrate.js';
import { migrations } from '../../src/adapters/postgres/migrations/index.js';
import { assertBuilt, runCli } from '../cli/process.js';
import { describeUnless } from '../support/describe-unless.js';
import { testDatabaseUrl } from '../support/postgres.js';
import { citusSchemas, citusSkipReason, citusUrl, onCoordinator, tableKindsOf } from './support.js';

/** What `distribute --json` prints. */
interface Report {
  db: string;
  schema: string;
  created: boolean;
  citusVersion: string;
  changed: { table: string; kind: string }[];
  unchanged: string[];
  functions: string[];
}

/** The kind Citus reports for each kind distribution.ts declares. */
const citusType = { tenant: 'distributed', 'own-key': 'distributed', reference: 'reference' } as const;

describeUnless(
  citusUrl ? null : citusSkipReason,
  'outcome-tracker distribute, on a Citus coordinator',
  () => {
    beforeAll(assertBuilt);
    const fresh = citusSchemas();

    it('creates the schema, gives every table its kind, and says so; a second run changes nothing', async () => {
      const { schema, url } = fresh();
      const first = await runCli(['distribute', '--db', url, '--json']);
      expect(first.code, first.stderr).toBe(0);
      const report = JSON.parse(first.stdout) as Report;
      expect(report).toMatchObject({
        schema,
        created: true,
        unchanged: [],
        functions: ['rate_limit_take', 'rate_limit_take_many'],
      });
      expect(await delegatedFunctions(schema)).toEqual(['rate_limit_take', 'rate_limit_take_many']);
      expect(report.db).not.toContain('password');
      expect(report.changed.map((c) => c.table).sort()).toEqual(Object.keys(tableKinds).sort());
      const kinds = await tableKindsOf(schema);
      for (const [table, kind] of Object.entries(tableKinds)) {
        expect(kinds.get(table)?.type, table).toBe(citusType[kind.kind]);
        if (kind.kind !== 'reference') expect(kinds.get(table)?.column, table).toBe(kind.column);
      }
      // Every tenant table in the accounts' group: one account's rows on one node.
      const groups = await onCoordinator<{ name: string; group: number }>(
        'SELECT c.relname AS name, p.colocationid AS group FROM pg_dist_partition p JOIN pg_class c ON c.oid = p.logicalrelid ' +
          "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND p.partmethod = 'h'",
        [schema],
      );
      const groupOf = new Map(groups.map((g) => [g.name, g.group]));
      for (const [table, kind] of Object.entries(tableKinds)) {
        if (kind.kind === 'tenant') expect(groupOf.get(table), table).toBe(groupOf.get('accounts'));
      }
      expect(groupOf.get('rate_limit_runs')).toBe(groupOf.get('rate_limits'));
      expect(groupOf.get('rate_limits')).not.toBe(groupOf.get('accounts'));

      const again = await runCli(['distribute', '--db', url]);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).toContain(
        `Nothing to do: all ${Object.keys(tableKinds).length} tables of ${schema}`,
      );
      const againJson = JSON.parse((await runCli(['distribute', '--db', url, '--json'])).stdout) as Report;
      expect(againJson).toMatchObject({ created: false, changed: [], functions: [] });
    });

    it('keeps a distributed schema distributed: a table a later migration adds is distributed by that migration', async () => {
      const { schema, url } = fresh();
      const coordinator = new URL(url);
      coordinator.searchParams.delete('schema');
      // A schema as the release before watchers (migration 21) left it, local to the coordinator.
      await migratedTo(coordinator.toString(), schema, 20);
      expect((await tableKindsOf(schema)).size).toBe(0);
      // Distributed as it stands, as that release's docs said (its label triggers allowed), without migrating it.
      const unsafeTriggers = new URL(coordinator);
      unsafeTriggers.searchParams.set('options', '-c citus.shard_count=4 -c citus.enable_unsafe_triggers=on');
      const pool = new pg.Pool({ connectionString: unsafeTriggers.toString(), max: 1 });
      try {
        const report = await distribute(pool, schema, { shardCount: 4 });
        expect(report.changed.length).toBeGreaterThan(0);
      } finally {
        await pool.end();
      }
      expect((await tableKindsOf(schema)).has('watchers')).toBe(false);
      // The upgrade: opening the storage migrates the rest, and gives the new tables their kinds,
      // on a connection that refuses statements reaching several shards (as the tests' requests
      // run): a migration's backfill of every account's counts still runs.
      const checked = new URL(coordinator);
      checked.searchParams.set('options', '-c citus.multi_task_query_log_level=error');
      const storage = postgresStorage({ connectionString: checked.toString(), schema, poolMax: 1 });
      await storage.ready();
      await storage.close();
      const kinds = await tableKindsOf(schema);
      expect(kinds.get('watchers')).toEqual({ type: 'distributed', column: 'account_id' });
      expect(kinds.get('notification_reads')).toEqual({ type: 'distributed', column: 'account_id' });
      expect(kinds.size).toBe(Object.keys(tableKinds).length);
      // The rate limiter's function of migration 22 runs where its key's rows are, as on a schema
      // distributed at once: every statement of a take in one call on that node.
      expect(await delegatedFunctions(schema)).toEqual(['rate_limit_take', 'rate_limit_take_many']);
    });

    it('completes the distribution of a schema an earlier version distributed, at a start with nothing to migrate', async () => {
      const { schema, url } = fresh();
      expect((await runCli(['distribute', '--db', url])).code).toBe(0);
      // As versions before this one left it: migration 22's function copied to the workers, but
      // run on the coordinator, each of its statements a round trip to the key's node.
      const take = `${schema}.rate_limit_take_many(text, bigint, bigint, bigint, bigint)`;
      await onCoordinator('SELECT create_distributed_function($1)', [take]);
      expect(await delegatedFunctions(schema)).toEqual(['rate_limit_take']);
      const coordinator = new URL(url);
      coordinator.searchParams.delete('schema');
      const storage = postgresStorage({ connectionString: coordinator.toString(), schema, poolMax: 1 });
      await storage.ready();
      await storage.close();
      expect(await delegatedFunctions(schema)).toEqual(['rate_limit_take', 'rate_limit_take_many']);
    });
  },
);

/** The functions of `schema` Citus runs on the node of their distribution argument, by name. */
async function delegatedFunctions(schema: string): Promise<string[]> {
  const rows = await onCoordinator<{ name: string }>(
    'SELECT p.proname AS name FROM pg_dist_object o JOIN pg_proc p ON p.oid = o.objid ' +
      'JOIN pg_namespace n ON n.oid = p.pronamespace ' +
      "WHERE o.classid = 'pg_proc'::regclass AND n.nspname = $1 AND o.distribution_argument_index IS NOT NULL " +
      'ORDER BY 1',
    [schema],
  );
  return rows.map((r) => r.name);
}

/** `schema` on `url` as a release at `version` left it, its tables local to the coordinator. */
async function migratedTo(url: string, schema: string, version: number): Promise<void> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    await migrate(
      pool,
      schema,
      migrations.filter((m) => m.version <= version),
      { distribute: false },
    );
  } finally {
    await pool.end();
  }
}

describe.skipIf(!testDatabaseUrl)('outcome-tracker distribute, on plain PostgreSQL', () => {
  it('refuses a database that is not a Citus coordinator, and creates nothing there', async () => {
    const schema = `ot_not_citus_${Date.now().toString(36)}`;
    const url = new URL(testDatabaseUrl ?? '');
    url.searchParams.set('schema', schema);
    const refused = await runCli(['distribute', '--db', url.toString()]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('is not a Citus coordinator: the citus extension is not installed');
    const client = new pg.Client({ connectionString: testDatabaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
      expect(rows).toHaveLength(0);
    } finally {
      await client.end();
    }
  });
});
