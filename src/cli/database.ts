import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { sqliteStorage } from '../adapters/sqlite/index.js';
import { isPostgresUrl, sqlitePathOf, unknownSchemeProblem } from './database-target.js';
import { CliError, UsageError } from './errors.js';
import type { CliIo, OpenedDatabase } from './io.js';

export { isPostgresUrl, unknownSchemeProblem };

export const defaultDatabasePath = './data/tracker.db';

/**
 * The database a command uses: `--db`, else `$OUTCOME_TRACKER_DB`, else `$DATABASE_URL` when it
 * is a postgres:// URL (hosting platforms set it; another kind of URL is not ours), else
 * `./data/tracker.db`. `--db` is checked with the other flags; `$OUTCOME_TRACKER_DB` here.
 */
export function databasePath(flag: string | undefined, env: CliIo['env']): string {
  if (flag !== undefined) return flag;
  if (env.OUTCOME_TRACKER_DB) {
    const problem = unknownSchemeProblem(env.OUTCOME_TRACKER_DB);
    if (problem) throw new UsageError(`$OUTCOME_TRACKER_DB: ${problem}`);
    return env.OUTCOME_TRACKER_DB;
  }
  if (env.DATABASE_URL && isPostgresUrl(env.DATABASE_URL)) return env.DATABASE_URL;
  return defaultDatabasePath;
}

/**
 * Opens the command's database: a postgres:// URL on PostgreSQL (the adapter, and `pg`, are
 * loaded only then), anything else as a SQLite file (a `file:` URL as the path it names).
 */
export async function openDatabase(target: string, options: { create: boolean }): Promise<OpenedDatabase> {
  if (!isPostgresUrl(target)) return openSqliteDatabase(sqlitePathOf(target), options);
  const { openPostgresDatabase } = await loadPostgres(() => import('./postgres-database.js'));
  return openPostgresDatabase(target, options);
}

/**
 * Loads the PostgreSQL side. `pg` is an optional peer of this package, so an install without it
 * gets a line saying what to install instead of Node's "Cannot find package 'pg'".
 */
export async function loadPostgres<T>(load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    if (code === 'ERR_MODULE_NOT_FOUND' && /['"]pg['"]/.test(message)) {
      throw new CliError('a postgres:// database needs the optional package pg: npm install pg');
    }
    throw error;
  }
}

/**
 * Opens the SQLite file. Only `init` and `serve` create a missing one: a typo in `--db` for
 * any other command should fail, not leave an empty database behind.
 */
export async function openSqliteDatabase(
  filename: string,
  options: { create: boolean },
): Promise<OpenedDatabase> {
  const path = resolve(filename);
  const existed = existsSync(path) && statSync(path).size > 0;
  if (!existed && !options.create) {
    throw new CliError(
      `no database at ${filename}: run "outcome-tracker init" or "outcome-tracker serve" first, or pass --db`,
    );
  }
  mkdirSync(dirname(path), { recursive: true });
  try {
    // Whether this process made the schema, not whether the file was there: several processes
    // may start on one missing file at once, and only one of them may bootstrap it.
    const storage = sqliteStorage({ filename: path });
    return { storage, path, created: storage.created };
  } catch (error) {
    throw new CliError(`cannot open ${filename}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Runs `fn` with the command's database open, and closes it whatever happens. */
export async function withDatabase<T>(
  io: CliIo,
  flag: string | undefined,
  options: { create: boolean },
  fn: (db: OpenedDatabase) => Promise<T>,
): Promise<T> {
  const db = await io.openDatabase(databasePath(flag, io.env), options);
  try {
    return await fn(db);
  } finally {
    await db.storage.close();
  }
}
