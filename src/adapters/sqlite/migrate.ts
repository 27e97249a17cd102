import { SchemaTooNew } from '../shared/schema-too-new.js';
import type { Db } from './engine/types.js';
import { latestVersion, type Migration, migrations } from './migrations/index.js';

export { SchemaTooNew };

/**
 * Applies the migrations the database lacks, in order, in one write transaction, and records
 * the reached version in `PRAGMA user_version`. Returns the migrations it applied. The version is
 * read inside the transaction, so two processes opening a fresh file never both migrate it.
 */
export function migrate(db: Db, all: readonly Migration[] = migrations): Migration[] {
  const known = all.at(-1)?.version ?? latestVersion;
  db.exec('BEGIN IMMEDIATE');
  try {
    const current = db.pragma('user_version', { simple: true }) as number;
    if (current > known) throw new SchemaTooNew(current, known);
    const pending = all.filter((migration) => migration.version > current);
    for (const migration of pending) {
      db.exec(migration.sql);
      // PRAGMA takes no bound parameters; the version is an integer from our own list.
      db.pragma(`user_version = ${Math.trunc(migration.version)}`);
    }
    db.exec('COMMIT');
    return pending;
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw error;
  }
}
