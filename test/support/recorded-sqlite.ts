import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll } from 'vitest';
import { sqliteStorage } from '../../src/adapters/sqlite/index.js';
import type { Storage } from '../../src/core/index.js';
import { queryPlan } from './query-plan.js';

/**
 * A SQLite storage on a file of its own for a plan test's `describe`, recording every statement
 * it runs (parameters in place); `plans` gives SQLite's plan of those that match, read on a
 * connection of its own. The file is made before the suite and removed after it.
 */
export function recordedSqlite(prefix: string, seed: (storage: Storage) => Promise<void>) {
  const dir = mkdtempSync(join(tmpdir(), `ot-${prefix}-`));
  const filename = join(dir, 'tracker.db');
  const statements: string[] = [];
  let storage: Storage;
  beforeAll(async () => {
    storage = sqliteStorage({ filename, onStatement: (sql) => statements.push(sql) });
    await seed(storage);
  });
  afterAll(async () => {
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    filename,
    statements,
    storage: () => storage,
    /** The plan of each recorded statement that `matches`, one string a statement. */
    plans(matches: (sql: string) => boolean): string[] {
      const reader = new Database(filename, { readonly: true });
      try {
        return statements.filter(matches).map((sql) => queryPlan(reader, sql).join('\n'));
      } finally {
        reader.close();
      }
    },
    /** A read-only connection of its own, for what the plans do not show; the caller closes it. */
    reader: () => new Database(filename, { readonly: true }),
  };
}
