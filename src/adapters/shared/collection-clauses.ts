import type { CollectionName, FilterMatch, ListQuery } from '../../core/port/index.js';
import { belowNullsAs, nullsAsSql, ranksLetThrough, sortKeySql } from '../../core/sort-keys.js';
import { type CollectionTable, columnOf } from './collection-table.js';
import { listClause } from './list-clause.js';
import type { SqlConditions } from './sql-conditions.js';

/** A list's equality filters, by field. */
export type Where = Partial<Record<string, FilterMatch>> | undefined;

/** Adds `column = value` (or `IS NULL`, or a list's any of / none of) for every defined entry of `where`. */
export function addEquality(table: CollectionTable, where: Where, into: SqlConditions): void {
  for (const [field, value] of Object.entries(where ?? {})) {
    if (value === undefined) continue;
    if (!table.filters.has(field)) throw new Error(`${table.name}: "${field}" is not a filter field`);
    const column = columnOf(field);
    if (value !== null && typeof value === 'object') {
      const not = !Array.isArray(value);
      const all = not ? (value as { not: readonly unknown[] }).not : (value as readonly unknown[]);
      const values = all.filter((v) => v !== null).map((v) => into.param(v));
      into.clauses.push(listClause(column, values, values.length < all.length, not));
    } else if (value === null) into.clauses.push(`${column} IS NULL`);
    else into.add((p) => `${column} = ${p}`, value);
  }
}

/**
 * Adds inclusive bounds on range fields. A nullable field that sorts null as a stand-in (a due
 * day, an estimate) is bounded on its sort key, `COALESCE(column, stand-in)`: the only index of
 * its values is on that expression (SQLite migration 21, PostgreSQL 20), and a bound on the bare
 * column cannot seek it (`dueBefore` with nothing due read every issue: 1.2 s of a million). The
 * key is the column wherever the column is set, and the stand-in, above every value a row can
 * hold, where it is null: `key < stand-in` leaves the null rows out, as the bare bound did.
 */
export function addRanges(
  table: CollectionTable,
  range: Partial<Record<string, { gte?: string | number; lte?: string | number }>> | undefined,
  into: SqlConditions,
): void {
  for (const [field, bounds] of Object.entries(range ?? {})) {
    if (bounds === undefined) continue;
    if (!table.ranges.has(field)) throw new Error(`${table.name}: "${field}" is not a range field`);
    const missing = nullsAsSql(table.name, field);
    const key = missing === undefined ? columnOf(field) : sortKeySql(table.name, field, columnOf(field));
    if (bounds.gte !== undefined) into.add((p) => `${key} >= ${p}`, bounds.gte);
    if (bounds.lte !== undefined) into.add((p) => `${key} <= ${p}`, bounds.lte);
    // An upper bound below the stand-in leaves the null rows out already.
    if (missing !== undefined && !(bounds.lte !== undefined && belowNullsAs(table.name, field, bounds.lte)))
      into.clauses.push(`${key} < ${missing}`);
  }
}

/** Adds a list's bounds on creation and update time (inclusive lower, exclusive upper). */
export function addTimeBounds<Name extends CollectionName>(
  query: ListQuery<Name>,
  into: SqlConditions,
): void {
  if (query.createdAfter !== undefined) into.add((p) => `created_at >= ${p}`, query.createdAfter);
  if (query.createdBefore !== undefined) into.add((p) => `created_at < ${p}`, query.createdBefore);
  if (query.updatedSince !== undefined) into.add((p) => `updated_at >= ${p}`, query.updatedSince);
  if (query.updatedBefore !== undefined) into.add((p) => `updated_at < ${p}`, query.updatedBefore);
}

/** Adds the fields a list asks to be set. */
export function addNotNull<Name extends CollectionName>(query: ListQuery<Name>, into: SqlConditions): void {
  for (const field of query.notNull ?? []) into.clauses.push(`${columnOf(field)} IS NOT NULL`);
}

/** Whether a list has bounds besides its equality filters and search (a range, a field set). */
export const isRanged = <Name extends CollectionName>(query: ListQuery<Name>): boolean =>
  Object.values(query.range ?? {}).some((bounds) => bounds !== undefined) || (query.notNull?.length ?? 0) > 0;

/** The field a list sums, checked to be one of the collection's sum fields. */
export function sumFieldOf<Name extends CollectionName>(
  table: CollectionTable,
  query: ListQuery<Name>,
): string | undefined {
  const field = query.sum as string | undefined;
  if (field !== undefined && !table.sums.has(field))
    throw new Error(`${table.name}: "${field}" is not a sum field`);
  return field;
}

/** A page's order and keyset: what follows a list's WHERE clause. */
export interface PageClauses {
  /** The page starts after a keyset position (it is not the first page). */
  after: boolean;
  /**
   * ` AND …` conditions of the page alone (not of the total): the keyset, rows unchanged since,
   * the ranks a filter lets through.
   */
  keyset: string;
  /** `ORDER BY … LIMIT …`. */
  orderAndLimit: string;
  /** The order alone, of a page's rows selected as `key` and `id` (`ORDER BY key, id`, or DESC). */
  orderOfSelected: string;
  /** The SQL of the sort key, to select as `key`. */
  key: string;
}

/**
 * The page of a list in its order: creation time, or (sort key, id) read from the sort field's
 * index (SQLite migration 17, PostgreSQL migration 15), with its parameters added to `into`
 * after the list's own.
 */
export function pageClauses<Name extends CollectionName>(
  name: Name,
  query: ListQuery<Name>,
  into: SqlConditions,
): PageClauses {
  const sort = query.sort;
  const after = sort
    ? query.afterKey && [query.afterKey.key, query.afterKey.id]
    : query.after && [query.after.createdAt, query.after.id];
  const ascending = (sort ? sort.order : query.order) === 'asc';
  const key = sort ? sortKeySql(name, sort.field, columnOf(sort.field)) : 'created_at';
  let keyset = '';
  if (sort && query.unchangedSince !== undefined)
    keyset += ` AND updated_at <= ${into.param(query.unchangedSince)}`;
  // A filter on a ranked sort field (status, severity) said again as a range of its key, so that
  // the page reads that part of the key's index rather than walking past every other value's rows.
  const ranks = sort ? ranksLetThrough(name, sort.field, (query.where as Where)?.[sort.field]) : undefined;
  if (ranks !== undefined && ranks.length > 0)
    keyset += ` AND ${key} BETWEEN ${ranks[0]} AND ${ranks.at(-1)}`;
  if (after) {
    const value = into.param(after[0]);
    const id = into.param(after[1]);
    keyset += ` AND (${key}, id) ${ascending ? '>' : '<'} (${value}, ${id})`;
  }
  const limit = into.param(query.limit);
  const order = ascending ? `${key}, id` : `${key} DESC, id DESC`;
  return {
    after: after !== undefined,
    keyset,
    orderAndLimit: `ORDER BY ${order} LIMIT ${limit}`,
    orderOfSelected: ascending ? 'ORDER BY key, id' : 'ORDER BY key DESC, id DESC',
    key,
  };
}
