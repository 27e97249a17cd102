import {
  collectionDefinitions,
  collectionNames as familyCollectionNames,
  collectionTables as familyTables,
} from '../../core/families/collections.js';
import { type CollectionName, fieldValue } from '../../core/port/index.js';
import type { SqlDialect } from './sql-dialect.js';

/**
 * How one collection maps onto its table in both SQL adapters, derived from
 * `collectionDefinitions`: the record as JSON (`data`), its filter, range, sum and sort fields in
 * columns of their own. A column is declared here once for both adapters.
 */
export interface CollectionTable {
  name: CollectionName;
  table: string;
  /** Record fields stored in their own column (filters, ranges, sums, sorts), with the column name. */
  columns: readonly { field: string; column: string }[];
  /**
   * Text fields with a column only to sort by (titles): PostgreSQL stores them without NUL
   * characters, which its text cannot hold (the API refuses them; only the JSON copy keeps any).
   */
  sortOnly: ReadonlySet<string>;
  filters: ReadonlySet<string>;
  ranges: ReadonlySet<string>;
  sums: ReadonlySet<string>;
  /** Nullable filter fields whose set rows have an index of their own (`<table>_archived`). */
  notNull: readonly string[];
  search: readonly string[];
  /** Inserts a row: its id and workspace, then `rowValues`. */
  insertSql: string;
  /** Replaces a row: `rowValues`, then its id, workspace and expected version. */
  updateSql: string;
  /** The unique rules a write may break: the driver's name of each → the port's UniqueViolation name. */
  uniqueRules: Readonly<Record<string, string>>;
}

/** `projectId` → `project_id`; a member of an object field, `external.id` → `external_id`. */
export const columnOf = (field: string): string =>
  field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`).replace('.', '_');

/** Every collection, in the family list's order. */
export const collectionNames: readonly CollectionName[] = familyCollectionNames;

/** Each collection's table, as its family declares it (`collection.table`): the one source of the name. */
export const tableOf: Readonly<Record<CollectionName, string>> = familyTables;

function collectionTable(name: CollectionName, dialect: SqlDialect): CollectionTable {
  const definition = collectionDefinitions[name];
  const table = tableOf[name];
  const queried: readonly string[] = [...definition.filters, ...definition.ranges, ...definition.sums];
  // Sort fields too (issue and outcome titles, due dates), but for updatedAt, a column of every table.
  const sorted = definition.sorts.filter((field) => field !== 'updatedAt');
  const columns = [...new Set<string>([...queried, ...sorted])].map((field) => ({
    field,
    column: columnOf(field),
  }));
  const written = [
    'created_at',
    'updated_at',
    'version',
    ...columns.map((c) => c.column),
    ...(dialect.searchText && definition.search.length > 0 ? ['search_text'] : []),
    'data',
  ];
  const all = ['id', 'workspace_id', ...written];
  const set = written.map((column, i) => `${column} = ${dialect.placeholder(i + 1)}`);
  const key = (i: number) => dialect.placeholder(written.length + i);
  return {
    name,
    table,
    columns,
    sortOnly: new Set(sorted.filter((field) => !queried.includes(field))),
    filters: new Set(definition.filters),
    ranges: new Set(definition.ranges),
    sums: new Set(definition.sums),
    notNull: definition.notNull,
    search: definition.search,
    insertSql:
      `INSERT INTO ${table} (${all.join(', ')}) ` +
      `VALUES (${all.map((_, i) => dialect.placeholder(i + 1)).join(', ')})${dialect.insertSuffix}`,
    updateSql: `UPDATE ${table} SET ${set.join(', ')} WHERE id = ${key(1)} AND workspace_id = ${key(2)} AND version = ${key(3)}`,
    uniqueRules: dialect.uniqueRules(name, table),
  };
}

/** Every collection's table, as the dialect writes it. */
export function collectionTables(dialect: SqlDialect): Readonly<Record<CollectionName, CollectionTable>> {
  return Object.fromEntries(collectionNames.map((name) => [name, collectionTable(name, dialect)])) as Record<
    CollectionName,
    CollectionTable
  >;
}

/**
 * The values a row writes after its id and workspace, in the order of the table's insert and
 * update statements; `json`: the row's text when the caller made it (Collection.insert).
 */
export function rowValues(
  table: CollectionTable,
  dialect: SqlDialect,
  row: { createdAt: string; updatedAt: string; version: number },
  json?: string,
): unknown[] {
  const record = row as unknown as Record<string, unknown>;
  return [
    row.createdAt,
    row.updatedAt,
    row.version,
    ...table.columns.map(({ field }) =>
      dialect.columnValue(fieldValue(record, field) ?? null, table.sortOnly.has(field)),
    ),
    ...(dialect.searchText && table.search.length > 0 ? [dialect.searchText(table.search, record)] : []),
    json ?? JSON.stringify(row),
  ];
}

/**
 * One of something per collection (a transaction's stores, a dump's sources), made by `make`:
 * a new collection needs no line of its own in an adapter. A loop, not Object.fromEntries: a
 * transaction makes its collections on every request.
 */
export function eachCollection<T>(make: (name: CollectionName) => T): Record<CollectionName, T> {
  const made = {} as Record<CollectionName, T>;
  for (const name of collectionNames) made[name] = make(name);
  return made;
}
