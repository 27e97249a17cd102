import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll } from 'vitest';

/** A Citus coordinator for the tests that need the cluster itself (TEST_CITUS_URL; `.ci/run` sets it). */
export const citusUrl: string | undefined = process.env.TEST_CITUS_URL || undefined;

export const citusSkipReason =
  'TEST_CITUS_URL is unset (set it to a Citus coordinator URL such as postgres://postgres@127.0.0.1:5440/ot_test)';

/** Runs `sql` on the coordinator, on a connection of its own. */
export async function onCoordinator<T extends pg.QueryResultRow = pg.QueryResultRow>(
  sql: string,
  params: unknown[] = [],
): Promise<T[]> {
  const client = new pg.Client({ connectionString: citusUrl });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

/**
 * A fresh schema name on the coordinator, as a `--db` URL with `?schema=` (4 shards a table when
 * distributed, to keep it quick); every one made by a test file is dropped after its last test.
 */
export function citusSchemas(): () => { schema: string; url: string } {
  const made: string[] = [];
  afterAll(async () => {
    for (const schema of made) await onCoordinator(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  });
  return () => {
    const schema = `ot_citus_${randomBytes(6).toString('hex')}`;
    made.push(schema);
    const url = new URL(citusUrl ?? 'postgres://unset');
    url.searchParams.set('schema', schema);
    url.searchParams.set('options', '-c citus.shard_count=4');
    return { schema, url: url.toString() };
  };
}

/** Each table of `schema` Citus knows, with its kind ('distributed' or 'reference') and column. */
export async function tableKindsOf(schema: string): Promise<Map<string, { type: string; column: string }>> {
  const rows = await onCoordinator<{ name: string; type: string; column: string }>(
    'SELECT c.relname AS name, t.citus_table_type AS type, t.distribution_column AS column FROM citus_tables t ' +
      'JOIN pg_class c ON c.oid = t.table_name JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1',
    [schema],
  );
  return new Map(rows.map((r) => [r.name, { type: r.type, column: r.column }]));
}
