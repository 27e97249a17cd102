import Database from 'better-sqlite3';
import type { DeferredBookkeeping } from './deferred-bookkeeping.js';
import { missing, type ReadCache } from './read-cache.js';
import type { Prepared, StatementCache } from './statement-cache.js';
import type { Conn, Db, GroupBookkeeping, Params, TransactionAccess } from './types.js';

/** Opens the database file with the pragmas the adapter relies on. */
export function openDatabase(filename: string, onStatement?: (sql: string) => void): Db {
  const db = new Database(filename, onStatement ? { verbose: (sql) => onStatement(String(sql)) } : {});
  // busy_timeout first: switching to WAL needs a lock another process may hold.
  db.pragma('busy_timeout = 5000');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  // Every request of a group commit runs in a SAVEPOINT, which keeps the prior content of each page
  // it changes in a sub-journal: a temporary file by default, written with a syscall per page (most
  // of a create's writes). In memory it costs a few pages per request and no I/O.
  db.pragma('temp_store = MEMORY');
  // SQLite's LIKE and lower() fold ASCII only; short searches fold with this so that "é" finds "É"
  // as the trigram index (which folds all of Unicode) and the memory adapter do.
  db.function('fold_case', { deterministic: true }, (value: unknown) =>
    typeof value === 'string' ? value.toLowerCase() : value,
  );
  return db;
}

/**
 * A Conn of one transaction: every statement checks that the transaction is open, and may write,
 * and meets the bookkeeping tables as written when it could see them.
 */
export function transactionConn(
  cache: StatementCache,
  access: TransactionAccess,
  bookkeeping: DeferredBookkeeping,
  reads: ReadCache,
): Conn {
  return new TransactionConn(cache, access, bookkeeping, reads);
}

/**
 * transactionConn's Conn. A class, its methods shared on the prototype: every request opens a
 * transaction and runs a few statements, and methods made per transaction (and a reading
 * function per statement) were a good part of what a request allocates.
 */
class TransactionConn implements Conn {
  /**
   * What this transaction's statements took. Timed around each statement, not the transaction:
   * the reads of a group share one, and each is charged its own statements only.
   */
  private spentMs = 0;

  constructor(
    private readonly cache: StatementCache,
    private readonly access: TransactionAccess,
    private readonly bookkeeping: DeferredBookkeeping,
    private readonly reads: ReadCache,
  ) {}

  private checked({ statement, effect, commutes }: Prepared): Database.Statement {
    if (!this.access.isOpen()) throw new Error('transaction already finished');
    if (!statement.readonly) {
      this.access.beforeWrite();
      this.reads.writing(effect);
    }
    if (!commutes) this.bookkeeping.flush();
    return statement;
  }

  /**
   * The first row of a read, or of a write with RETURNING (`DELETE … RETURNING`), which SQLite
   * does not count for the caller: such a write counts as one once it has run, so that work
   * failing after it takes its group back instead of committing it.
   */
  private first(prepared: Prepared, params: Params): unknown {
    const statement = this.checked(prepared);
    const started = performance.now();
    const row = statement.get(...params);
    this.spentMs += performance.now() - started;
    if (!statement.readonly) this.access.wrote(1);
    return row;
  }

  /** Every row of a read, or of a write with RETURNING, counted as `first` counts. */
  private every(prepared: Prepared, params: Params): unknown[] {
    const statement = this.checked(prepared);
    const started = performance.now();
    const rows = statement.all(...params);
    this.spentMs += performance.now() - started;
    if (!statement.readonly) this.access.wrote(1);
    return rows;
  }

  /** The kept result of a read (read-cache.ts), or `missing`. */
  private kept(sql: string, params: Params): unknown {
    if (!this.access.isOpen()) throw new Error('transaction already finished');
    return this.reads.find(sql, params);
  }

  /** The statement of a read whose result is to be kept (run by `first` or `every`, as a read). */
  private keptStatement(sql: string): Prepared {
    const prepared = this.cache.valuesOf(sql);
    if (!prepared.statement.readonly) throw new Error(`only a read is kept: ${sql}`);
    return prepared;
  }

  run(sql: string, params: Params = []): number {
    return this.write(sql, params).changes;
  }

  insert(sql: string, params: Params = []): number {
    return Number(this.write(sql, params).lastInsertRowid);
  }

  private write(sql: string, params: Params): Database.RunResult {
    const statement = this.checked(this.cache.rowsOf(sql));
    const started = performance.now();
    const result = statement.run(...params);
    this.spentMs += performance.now() - started;
    this.access.wrote(result.changes);
    return result;
  }

  row<T>(sql: string, params: Params = []): T | undefined {
    return this.first(this.cache.rowsOf(sql), params) as T | undefined;
  }

  rows<T>(sql: string, params: Params = []): T[] {
    return this.every(this.cache.rowsOf(sql), params) as T[];
  }

  value<T>(sql: string, params: Params = []): T | undefined {
    return this.first(this.cache.valuesOf(sql), params) as T | undefined;
  }

  values<T>(sql: string, params: Params = []): T[] {
    return this.every(this.cache.valuesOf(sql), params) as T[];
  }

  keptValue<T>(tables: readonly string[], sql: string, params: Params): T | undefined {
    const found = this.kept(sql, params);
    if (found !== missing) return found as T | undefined;
    const value = this.first(this.keptStatement(sql), params);
    this.reads.keep(tables, sql, params, value);
    return value as T | undefined;
  }

  keptValues<T>(tables: readonly string[], sql: string, params: Params): readonly T[] {
    const found = this.kept(sql, params);
    if (found !== missing) return found as readonly T[];
    const value = this.every(this.keptStatement(sql), params);
    this.reads.keep(tables, sql, params, value);
    return value as readonly T[];
  }

  defer<T>(add: (bookkeeping: GroupBookkeeping) => T): T {
    if (!this.access.isOpen()) throw new Error('transaction already finished');
    this.access.beforeWrite();
    const result = add(this.bookkeeping);
    this.access.wrote(1);
    return result;
  }

  busyMs(): number {
    return this.spentMs;
  }
}
