import type { DumpPage, DumpRows, DumpTable } from '../../core/port/index.js';

type Row = Record<string, unknown>;

/**
 * A table the dump pages through by a key of its own rather than by insertion order: the signals
 * on PostgreSQL (by account, then sequence: sequences are per account) and the watching tables
 * (SQLite keeps them WITHOUT ROWID; on PostgreSQL they have no `pk`; nothing lists their ties in
 * insertion order, so key order is as good a copy order as any).
 */
export interface KeyedSource<Table extends DumpTable> {
  table: string;
  /** The key's columns, in its order: the page's order and its cursor. */
  key: readonly string[];
  /** The columns read (default every one). */
  columns?: string;
  toRecord: (row: Row) => DumpRows[Table];
}

/**
 * One page of a keyed table: the statement (placeholders from `placeholder(i)`, 1-based, in the
 * order they appear), its parameters, and how to read the page's rows and cursor. The cursor is the
 * last row's key values as JSON; a row-value comparison resumes after it on both SQL engines.
 */
export function keyedPage<Table extends DumpTable>(
  source: KeyedSource<Table>,
  after: string | null,
  limit: number,
  placeholder: (index: number) => string,
): { sql: string; params: unknown[]; page: (rows: Row[]) => DumpPage<Table> } {
  const from = after === null ? [] : (JSON.parse(after) as unknown[]);
  const keyList = source.key.join(', ');
  const where =
    from.length === 0 ? '' : `WHERE (${keyList}) > (${from.map((_, i) => placeholder(i + 1)).join(', ')}) `;
  return {
    // Parameters in the order they appear: SQLite's `?` binds by position.
    sql:
      `SELECT ${source.columns ?? '*'} FROM ${source.table} ${where}` +
      `ORDER BY ${keyList} LIMIT ${placeholder(from.length + 1)}`,
    params: [...from, limit],
    page: (rows) => {
      const last = rows.at(-1);
      return {
        rows: rows.map(source.toRecord),
        next: rows.length === limit && last ? JSON.stringify(source.key.map((column) => last[column])) : null,
      };
    },
  };
}
