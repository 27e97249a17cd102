import type Database from 'better-sqlite3';

/** SQLite's plan for a statement as it ran (parameters in place), one line per step. */
export function queryPlan(db: Database.Database, sql: string): string[] {
  return db
    .prepare(`EXPLAIN QUERY PLAN ${sql}`)
    .all()
    .map((row) => (row as { detail: string }).detail);
}
