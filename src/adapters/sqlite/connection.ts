import Database from 'better-sqlite3';
import type { DeferredBookkeeping } from './deferred-bookkeeping.js';
import { missing, type ReadCache } from './read-cache.js';
import type { StatementEffect } from './statement-effects.js';

export type Db = Database.Database;
type Params = readonly unknown[];

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

/** How many prepared statements a connection keeps: far more than the adapter's fixed queries. */
export const statementCacheSize = 500;

/**
 * A prepared statement, what it may change (statement-effects.ts), and whether it may run while
 * bookkeeping waits (deferred-bookkeeping.ts).
 */
export interface Prepared {
  statement: Database.Statement;
  effect: StatementEffect;
  commutes: boolean;
}

/** Without a judge: any statement may change anything, and none runs while bookkeeping waits. */
const unknownEffect: Omit<Prepared, 'statement'> = { effect: { kind: 'write' }, commutes: false };

/** A cached statement, and whether it was used since the sweep for a victim last passed it. */
interface CachedStatement extends Prepared {
  used: boolean;
}

/**
 * Prepared statements cached per connection, keyed by their SQL text: every query shape is
 * compiled once however many requests use it, and query shapes a client can vary (filter
 * combinations) cannot grow the cache without bound. Callers keep the number of shapes small
 * too: lists of values are bound as one JSON array.
 *
 * Eviction approximates least-recently-used by second chance (CLOCK): a hit only marks its entry
 * used, where exact LRU would move it to the end of the order on every lookup of every request.
 * The sweep for a victim goes oldest first; a used entry loses its mark and goes to the end, the
 * first unused one is dropped. So a statement in steady use is never dropped, and each sweep
 * clears the marks it passes, so a miss costs O(1) amortized.
 */
export class StatementCache {
  /** Statements by SQL text, oldest first (a Map iterates in insertion order). */
  private readonly statements = new Map<string, CachedStatement>();
  /** The same statements in pluck mode, for queries read as single values. */
  private readonly plucked = new Map<string, CachedStatement>();

  constructor(
    readonly db: Db,
    private readonly capacity = statementCacheSize,
    /** Judges once per statement text what it may change and whether it may run while bookkeeping waits. */
    private readonly judge: (
      sql: string,
      statement: Database.Statement,
    ) => Omit<Prepared, 'statement'> = () => unknownEffect,
  ) {}

  /** How many statements are cached now. */
  get size(): number {
    return this.statements.size + this.plucked.size;
  }

  /** A statement returning rows as objects. */
  rowsOf(sql: string): Prepared {
    return this.lookup(this.statements, sql, false);
  }

  /** A statement returning the first column of each row. */
  valuesOf(sql: string): Prepared {
    return this.lookup(this.plucked, sql, true);
  }

  // Keyed by the SQL text itself (two maps rather than a prefixed key): a string built anew for
  // each lookup would be hashed anew each time, and the callers' SQL is mostly constant.
  private lookup(map: Map<string, CachedStatement>, sql: string, pluck: boolean): Prepared {
    const cached = map.get(sql);
    if (cached) {
      cached.used = true;
      return cached;
    }
    const statement = pluck ? this.db.prepare(sql).pluck(true) : this.db.prepare(sql);
    if (this.size >= this.capacity) {
      evictOne(this.statements.size >= this.plucked.size ? this.statements : this.plucked);
    }
    const entry = { statement, ...this.judge(sql, statement), used: false };
    map.set(sql, entry);
    return entry;
  }
}

/** Drops the oldest entry not used since the last sweep passed it (see StatementCache). */
function evictOne(map: Map<string, CachedStatement>): void {
  for (const [sql, entry] of map) {
    map.delete(sql);
    if (!entry.used) return;
    // Iteration reaches re-inserted entries again, unmarked by then: the sweep always ends.
    entry.used = false;
    map.set(sql, entry);
  }
}

/**
 * What a store's methods find through `this`: the connection of the transaction the store was
 * made for. A transaction makes one object per store, holding this and the methods (functions
 * made once, not closures made per transaction: a request then allocates a fraction of what it
 * did). A copy made by spreading a store works as the store; a method taken off it and called
 * bare does not.
 */
export interface TransactionBound {
  readonly conn: Conn;
}

/**
 * What the stores of one transaction use to reach the database. Every call checks that the
 * transaction is still open, so a store kept past its transaction cannot write outside one.
 */
export interface Conn {
  /** Runs a write; returns how many rows it changed. */
  run(sql: string, params?: Params): number;
  /**
   * Runs an INSERT of one row into a rowid table; returns its rowid. Cheaper than `RETURNING`,
   * which SQLite answers from a temporary table.
   */
  insert(sql: string, params?: Params): number;
  /** The first row, or undefined. */
  row<T>(sql: string, params?: Params): T | undefined;
  rows<T>(sql: string, params?: Params): T[];
  /** The first column of the first row, or undefined. */
  value<T>(sql: string, params?: Params): T | undefined;
  values<T>(sql: string, params?: Params): T[];
  /**
   * `value` or `values` of a read, kept for the rest of the transaction (read-cache.ts), to be
   * read and not changed; `tables`: every table the query reads (none of them sqlite_sequence,
   * which an insert into an AUTOINCREMENT table changes too).
   */
  keptValue<T>(tables: readonly string[], sql: string, params: Params): T | undefined;
  keptValues<T>(tables: readonly string[], sql: string, params: Params): readonly T[];
  /**
   * Adds to the bookkeeping written at the end of the write group (deferred-bookkeeping.ts):
   * a write of this transaction, refused where it may not write.
   */
  defer<T>(add: (bookkeeping: DeferredBookkeeping) => T): T;
  /** Milliseconds this transaction's statements have run (StorageTx.busyMs). */
  busyMs(): number;
}

/** What a transaction's stores may do with the connection, as its queue decides (transaction-queue.ts). */
export interface TransactionAccess {
  /** False once the transaction has ended: its stores then refuse every statement. */
  isOpen(): boolean;
  /** Called before any statement that writes: throws where this transaction may not write. */
  beforeWrite(): void;
  /** Told how many rows each write changed (a statement that failed changed none). */
  wrote(changes: number): void;
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

  defer<T>(add: (bookkeeping: DeferredBookkeeping) => T): T {
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
