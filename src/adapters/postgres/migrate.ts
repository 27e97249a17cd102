import type { Pool } from 'pg';
import { SchemaTooNew } from '../shared/schema-too-new.js';
import { latestVersion, type Migration, migrations } from './migrations/index.js';
import { quoteIdent } from './sql.js';

export { SchemaTooNew };

/**
 * Brings `schema` up to date: creates it when missing, then applies the migrations its
 * `schema_migrations` table lacks, all in one transaction that first takes an advisory lock of
 * the schema. Several processes starting at once on an empty database therefore wait for each
 * other and the migrations are applied exactly once; one that fails leaves nothing behind.
 * Throws SchemaTooNew when the database was migrated by a newer outcome-tracker. Returns the
 * migrations it applied.
 */
export async function migrate(
  pool: Pool,
  schema: string,
  all: readonly Migration[] = migrations,
): Promise<Migration[]> {
  const known = all.at(-1)?.version ?? latestVersion;
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    try {
      await client.query('SELECT pg_advisory_xact_lock(1869574503, hashtext($1))', [schema]);
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}`);
      await client.query(`SET LOCAL search_path TO ${quoteIdent(schema)}`);
      await client.query(
        'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, ' +
          'applied_at timestamptz NOT NULL DEFAULT clock_timestamp())',
      );
      const { rows } = await client.query<{ version: number | null }>(
        'SELECT MAX(version) AS version FROM schema_migrations',
      );
      const current = rows[0]?.version ?? 0;
      if (current > known) throw new SchemaTooNew(current, known);
      const pending = all.filter((migration) => migration.version > current);
      for (const migration of pending) {
        await client.query(migration.sql);
        await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
          migration.version,
          migration.name,
        ]);
      }
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
