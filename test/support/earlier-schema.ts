import { rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach } from 'vitest';
import { migrate } from '../../src/adapters/sqlite/migrate.js';
import { migrations } from '../../src/adapters/sqlite/migrations/index.js';
import { tempDir } from './adapters.js';

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
