import { rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterEach, beforeEach } from 'vitest';
import { migrate as migratePostgres } from '../../src/adapters/postgres/migrate.js';
import { migrations as postgresMigrations } from '../../src/adapters/postgres/migrations/index.js';
import { migrate } from '../../src/adapters/sqlite/migrate.js';
import { migrations } from '../../src/adapters/sqlite/migrations/index.js';
import { tempDir } from './adapters.js';
import { requireDatabaseUrl } from './postgres.js';

/**
 * Registers hooks giving each test a SQLite file in a fresh temp directory, removed after it, for
 * testing a migration on a database an earlier release made: `migratedTo(version)` opens the file
 * with the schema as it was at that version, for the test to fill with raw SQL and close.
 */
export function earlierSchemaFile() {
  let dir = '';
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const filename = () => join(dir, 'tracker.db');
  return {
    filename,
    migratedTo(version: number): Database.Database {
      const db = new Database(filename());
      migrate(
        db,
        migrations.filter((m) => m.version <= version),
      );
      return db;
    },
  };
}

/**
 * The PostgreSQL counterpart of `earlierSchemaFile().migratedTo`: makes `schema` as the adapter
 * left it at `version`, then lets `fill` write raw rows into it (its search_path set to it), for a
 * test of a later migration on a database an earlier release made.
 */
export async function postgresSchemaAt(
  schema: string,
  version: number,
  fill: (client: pg.PoolClient) => Promise<void>,
): Promise<void> {
  const pool = new pg.Pool({ connectionString: requireDatabaseUrl(), max: 1 });
  try {
    await migratePostgres(
      pool,
      schema,
      postgresMigrations.filter((m) => m.version <= version),
    );
    const client = await pool.connect();
    try {
      await client.query(`SET search_path TO "${schema}"`);
      await fill(client);
    } finally {
      client.release();
    }
  } finally {
    await pool.end();
  }
}
