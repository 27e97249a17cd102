import { issueSeverities, issueStatuses } from './model.js';
import type { CollectionName, FilterMatch, SortKey } from './port/index.js';

export type { SortKey };

/** What a missing estimate sorts as: above any estimate taken (at most a million). */
const missingEstimate = 1_000_000_000;

interface SortKeyRule {
  /** An enum sorted by its place in this list (severity: low < critical), not alphabetically. */
  ranks?: readonly string[];
  /**
   * A nullable field: null sorts as this value (after every date: `~` follows the digits; after
   * every estimate: a number above the largest taken).
   */
  nullsAs?: string | number;
}

/** Sort fields whose key is not the stored value itself. */
const rules: Partial<Record<CollectionName, Record<string, SortKeyRule>>> = {
  issues: {
    severity: { ranks: issueSeverities },
    status: { ranks: issueStatuses },
    dueOn: { nullsAs: '~' },
    estimate: { nullsAs: missingEstimate },
  },
  outcomes: { dueDate: { nullsAs: '~' } },
};

/**
 * The key a row sorts by under `field`: the same in every adapter (the SQL ones compute it with
 * `sortKeySql` and index that expression), and what a cursor carries.
 */
export function sortKeyOf(name: CollectionName, field: string, row: unknown): SortKey {
  const value = (row as Record<string, unknown>)[field];
  const rule = rules[name]?.[field];
  if (rule?.ranks) return rule.ranks.indexOf(value as string);
  if (value === null || value === undefined) return rule?.nullsAs ?? '';
  return value as SortKey;
}

/** A ranked field's values in rank order (severity: low first); undefined for a field sorted by its value. */
export const sortRanks = (name: CollectionName, field: string): readonly string[] | undefined =>
  rules[name]?.[field]?.ranks;

/**
 * The ranks a filter on a ranked sort field lets through, least first: a page sorted by that
 * field then reads only their part of the sort's index (sorted by `-status` and filtered to open
 * issues, it no longer walks every closed, resolved and blocked one first). Undefined where the
 * field is not ranked or not filtered, or where the filter names a value outside the ranks.
 */
export function ranksLetThrough(
  name: CollectionName,
  field: string,
  filter: FilterMatch | undefined,
): number[] | undefined {
  const ranks = sortRanks(name, field);
  if (ranks === undefined || filter === undefined || filter === null) return undefined;
  const listed: readonly unknown[] =
    typeof filter !== 'object'
      ? [filter]
      : Array.isArray(filter)
        ? filter
        : ranks.filter((value) => !(filter as { not: readonly unknown[] }).not.includes(value));
  if (!listed.every((value) => typeof value === 'string' && ranks.includes(value))) return undefined;
  return [...new Set(listed.map((value) => ranks.indexOf(value as string)))].sort((a, b) => a - b);
}

/**
 * Sort fields a row keeps from its creation on: a walk sorted on one needs no rule for rows that
 * change while it pages (see `ListQuery.unchangedSince`), since a change never moves them.
 */
const fixedFields: Partial<Record<CollectionName, readonly string[]>> = { issues: ['number'] };

/** Whether a row's key under `field` can change after the row is created. */
export const sortKeyCanChange = (name: CollectionName, field: string): boolean =>
  field !== 'createdAt' && !(fixedFields[name]?.includes(field) ?? false);

/** Whether a key read back from a cursor has the type `field`'s keys have. */
export function isSortKeyOf(name: CollectionName, field: string, key: unknown): key is SortKey {
  if (rules[name]?.[field]?.ranks || field === 'number' || field === 'minutes') return Number.isInteger(key);
  if (name === 'issues' && field === 'estimate') return typeof key === 'number' && Number.isFinite(key);
  return typeof key === 'string';
}

/**
 * What null sorts as under a nullable sort field, as an SQL literal (only constants of this file),
 * or undefined for a field whose key has no stand-in for null.
 */
export function nullsAsSql(name: CollectionName, field: string): string | undefined {
  const missing = rules[name]?.[field]?.nullsAs;
  if (missing === undefined) return undefined;
  return typeof missing === 'number' ? String(missing) : `'${missing}'`;
}

/** Whether a bound on `field` lies below what null sorts as (every value a row can hold does). */
export function belowNullsAs(name: CollectionName, field: string, bound: string | number): boolean {
  const missing = rules[name]?.[field]?.nullsAs;
  return missing !== undefined && typeof bound === typeof missing && bound < missing;
}

/**
 * The SQL expression of `sortKeyOf` over the column (the same text in SQLite and PostgreSQL):
 * the indexes of migrations 17 (SQLite) and 15 (PostgreSQL) are on it, and a query must repeat
 * it word for word to use them. Only constants of this file go into it.
 */
export function sortKeySql(name: CollectionName, field: string, column: string): string {
  const rule = rules[name]?.[field];
  if (rule?.ranks) {
    const cases = rule.ranks.map((value, rank) => `WHEN '${value}' THEN ${rank}`).join(' ');
    return `(CASE ${column} ${cases} END)`;
  }
  if (typeof rule?.nullsAs === 'number') return `COALESCE(${column}, ${rule.nullsAs})`;
  if (rule?.nullsAs !== undefined) return `COALESCE(${column}, '${rule.nullsAs}')`;
  return column;
}
