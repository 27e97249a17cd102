import Database from 'better-sqlite3';

export type Db = Database.Database;
type Params = readonly unknown[];

/** Opens the database file with the pragmas the adapter relies on. */
export function openDatabase(filename: string): Db {
  const db = new Database(filename);
  // busy_timeout first: switching to WAL needs a lock another process may hold.
  db.pragma('busy_timeout = 5000');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  // SQLite's LIKE and lower() fold ASCII only; short searches fold with this so that "é" finds "É"
  // as the trigram index (which folds all of Unicode) and the memory adapter do.
  db.function('fold_case', { deterministic: true }, (value: unknown) =>
    typeof value === 'string' ? value.toLowerCase() : value,
  );
  return db;
}

/**
 * Prepared statements cached per connection, keyed by their SQL text: every query shape is
 * compiled once, however many requests use it.
 */
export class StatementCache {
  private readonly rows = new Map<string, Database.Statement>();
  private readonly values = new Map<string, Database.Statement>();

  constructor(readonly db: Db) {}

  /** A statement returning rows as objects. */
  rowsOf(sql: string): Database.Statement {
    let statement = this.rows.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.rows.set(sql, statement);
    }
    return statement;
  }

  /** A statement returning the first column of each row. */
  valuesOf(sql: string): Database.Statement {
    let statement = this.values.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql).pluck(true);
      this.values.set(sql, statement);
    }
    return statement;
  }
}

/**
 * What the stores of one transaction use to reach the database. Every call checks that the
 * transaction is still open, so a store kept past its transaction cannot write outside one.
 */
export interface Conn {
  /** Runs a write; returns how many rows it changed. */
  run(sql: string, params?: Params): number;
  /** The first row, or undefined. */
  row<T>(sql: string, params?: Params): T | undefined;
  rows<T>(sql: string, params?: Params): T[];
  /** The first column of the first row, or undefined. */
  value<T>(sql: string, params?: Params): T | undefined;
  values<T>(sql: string, params?: Params): T[];
}

/** A Conn valid while `isOpen()` holds. */
export function transactionConn(cache: StatementCache, isOpen: () => boolean): Conn {
  const check = () => {
    if (!isOpen()) throw new Error('transaction already finished');
  };
  return {
    run(sql, params = []) {
      check();
      return cache.rowsOf(sql).run(...params).changes;
    },
    row<T>(sql: string, params: Params = []) {
      check();
      return cache.rowsOf(sql).get(...params) as T | undefined;
    },
    rows<T>(sql: string, params: Params = []) {
      check();
      return cache.rowsOf(sql).all(...params) as T[];
    },
    value<T>(sql: string, params: Params = []) {
      check();
      return cache.valuesOf(sql).get(...params) as T | undefined;
    },
    values<T>(sql: string, params: Params = []) {
      check();
      return cache.valuesOf(sql).all(...params) as T[];
    },
  };
}
