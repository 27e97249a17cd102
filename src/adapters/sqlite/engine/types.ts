import type Database from 'better-sqlite3';

/**
 * The engine's shared vocabulary: what the stores and the engine's parts (connection, queue,
 * bookkeeping, read cache, statement effects) say to each other. Types only, imported by all of
 * them and importing none, so that no part of the engine depends on another through a type.
 */

export type Db = Database.Database;

export type Params = readonly unknown[];

/**
 * What running a statement may change:
 * - `read`: nothing;
 * - `insert`: rows of `tables` alone: added to the first (or, by an upsert, updated) without
 *   deleting a row, and written by the insert triggers of that table (the others, whose own
 *   triggers fire none); besides, for an AUTOINCREMENT table, its entry in `sqlite_sequence`;
 * - `write`: anything (an update or delete, whose triggers and foreign-key actions reach other
 *   tables, a REPLACE, a statement this judge cannot read).
 */
export type StatementEffect =
  | { kind: 'read' }
  | { kind: 'insert'; tables: readonly string[] }
  | { kind: 'write' };

/** A row inserted into a counted collection, as its list totals see it. */
export interface ListedRow {
  collection: string;
  workspaceId: string;
  /** The counted columns (migration 2), the same array for every row of the collection. */
  columns: readonly string[];
  values: readonly string[];
}

/** What a store may leave to be written at the end of the write group (deferred-bookkeeping.ts). */
export interface GroupBookkeeping {
  /**
   * One more row in the collection's list totals: the workspace's, and one per counted column
   * for the value the row holds (`values`, in the order of `columns`; a NULL is char(0)).
   */
  countListedRow(row: ListedRow): void;
  /** One more event of the account and type. */
  countSignal(accountId: string, type: string): void;
  /** The row `pk` of `table` is to be (re)written to the search index. */
  noteSearch(table: string, pk: number): void;
  /** The counter's next value (1 for a counter never used), counted up in memory after its first read. */
  nextCounter(workspaceId: string, name: string): number;
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
  defer<T>(add: (bookkeeping: GroupBookkeeping) => T): T;
  /** Milliseconds this transaction's statements have run (StorageTx.busyMs). */
  busyMs(): number;
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
