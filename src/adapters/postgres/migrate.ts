import type { Pool } from 'pg';
import { SchemaTooNew } from '../shared/schema-too-new.js';
import { distributeSchema, isCitusCoordinator, isDistributed, isDistributionComplete } from './distribute.js';
import { latestVersion, type Migration, migrations } from './migrations/index.js';
import { splitStatements } from './split-statements.js';
import { quoteIdent } from './sql.js';
import { typed } from './types.js';

export { SchemaTooNew };

/**
 * Brings `schema` up to date: creates it when missing, then applies the migrations its
 * `schema_migrations` table lacks, all in one transaction that first takes an advisory lock of
 * the schema. Several processes starting at once on an empty database therefore wait for each
 * other and the migrations are applied exactly once; one that fails leaves nothing behind.
 * Throws SchemaTooNew when the database was migrated by a newer outcome-tracker. Returns the
 * migrations it applied.
 *
 * On a Citus coordinator, the same transaction then gives each table the migrations added its kind
 * (distribute.ts): every table of a schema it creates, and a new table of a schema distributed
 * already, so neither a first start nor an upgrade needs a manual step (`distribute: false` leaves
 * a new schema's tables local to the coordinator). A start with nothing to migrate still completes a
 * distributed schema's distribution, so what a later version distributes needs no manual step
 * either. Its DDL runs in Citus's sequential mode, which
 * a transaction that creates and distributes tables needs.
 */
export async function migrate(
  pool: Pool,
  schema: string,
  all: readonly Migration[] = migrations,
  options: { distribute?: boolean } = {},
): Promise<Migration[]> {
  const known = all.at(-1)?.version ?? latestVersion;
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    try {
      await client.query('SELECT pg_advisory_xact_lock(1869574503, hashtext($1))', [schema]);
      // Created when missing only: on a Citus worker (a process may connect to one) any DDL is
      // refused, even one that would change nothing.
      const { rows: found } = await client.query<{ there: boolean }>(
        typed({
          text: 'SELECT to_regclass($1) IS NOT NULL AS there',
          values: [`${quoteIdent(schema)}.schema_migrations`],
        }),
      );
      if (found[0]?.there !== true) await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}`);
      await client.query(`SET LOCAL search_path TO ${quoteIdent(schema)}`);
      if (found[0]?.there !== true)
        await client.query(
          'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, ' +
            'applied_at timestamptz NOT NULL DEFAULT clock_timestamp())',
        );
      const { rows } = await client.query<{ version: number | null }>(
        typed({ text: 'SELECT MAX(version) AS version FROM schema_migrations' }),
      );
      const current = rows[0]?.version ?? 0;
      if (current > known) throw new SchemaTooNew(current, known);
      const pending = all.filter((migration) => migration.version > current);
      // Checked at every start, not only with migrations pending: a schema distributed by an
      // earlier version may lack what this version's distribution adds (a function it runs where
      // its key is), and distributeSchema, idempotent, completes it.
      const distributed =
        (await isCitusCoordinator(client)) &&
        ((current === 0 && options.distribute !== false) || (await isDistributed(client, schema)));
      if (distributed && pending.length > 0) {
        await client.query("SET LOCAL citus.multi_shard_modify_mode TO 'sequential'");
        // Migrations 16 to 22 made triggers on issues, which Citus refuses on a distributed table
        // unless told otherwise; migration 23 drops them again, in the same transaction.
        await client.query('SET LOCAL citus.enable_unsafe_triggers TO on');
        // A migration reaches every account (a backfill counts every account's issues): where
        // statements spanning shards are refused (multi_task_query_log_level, as the tests set it
        // to prove requests reach one shard), a migration's are not.
        await client.query("SET LOCAL citus.multi_task_query_log_level TO 'off'");
      }
      for (const migration of pending) {
        if (distributed)
          for (const statement of splitStatements(migration.sql)) await client.query(statement);
        else await client.query(migration.sql);
        await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
          migration.version,
          migration.name,
        ]);
      }
      if (distributed && (pending.length > 0 || !(await isDistributionComplete(client, schema))))
        await distributeSchema(client, schema);
      await client.query('COMMIT');
      return pending;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    }
  } finally {
    client.release();
  }
}
