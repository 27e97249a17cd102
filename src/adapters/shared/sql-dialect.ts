import type { CollectionName } from '../../core/port/index.js';

/**
 * What differs between the SQL adapters in how a collection's table is written and queried; the
 * rest of the table's shape is shared (collection-table.ts).
 */
export interface SqlDialect {
  /** The placeholder of the parameter at `position` (counted from 1): `?` or `$3`. */
  placeholder(position: number): string;
  /** What follows an insert's VALUES (PostgreSQL: a clash with a unique rule inserts nothing). */
  readonly insertSuffix: string;
  /**
   * The text a search looks in, kept in a `search_text` column of every searched table; absent
   * where the adapter searches an index of its own (SQLite's FTS5 tables).
   */
  readonly searchText?: (search: readonly string[], record: Record<string, unknown>) => string;
  /** A record field's value as its column stores it (a sort-only column: `sortOnly`). */
  columnValue(value: unknown, sortOnly: boolean): unknown;
  /** The unique rules a write may break: the driver's name of each → the port's UniqueViolation name. */
  uniqueRules(name: CollectionName, table: string): Readonly<Record<string, string>>;
}
