import type { CollectionName, FilterMatch, ListQuery } from '../../core/port/index.js';
import { ranksLetThrough, sortRanks } from '../../core/sort-keys.js';

/**
 * A list sorted by a ranked field (issues' status or severity) reads the sort's index in rank
 * order; where its first ranks hold no match it walks all of them first (sorted by `-status` in a
 * project whose issues are all open: every closed, resolved and blocked issue of the workspace).
 * An adapter that keeps counts by that field narrows the list to the values that have matches:
 * these are the two halves every such adapter shares, around its own counts.
 */

/**
 * The ranked sort field of a list and the values of it the list lets through (all of them
 * without a filter on it), in rank order; undefined where the sort is not by a ranked field or
 * the list lets fewer than two values through (its filter then narrows the page by itself).
 */
export function rankedValues<Name extends CollectionName>(
  name: Name,
  query: ListQuery<Name>,
): { field: string; values: string[] } | undefined {
  const field = query.sort?.field;
  const ranks = field === undefined ? undefined : sortRanks(name, field);
  if (field === undefined || ranks === undefined) return undefined;
  const filter = (query.where as Record<string, FilterMatch | undefined> | undefined)?.[field];
  const letThrough =
    filter === undefined ? ranks.map((_, rank) => rank) : ranksLetThrough(name, field, filter);
  if (letThrough === undefined || letThrough.length < 2) return undefined;
  return { field, values: letThrough.map((rank) => ranks[rank] as string) };
}

/**
 * The list narrowed to the values of `field` that have matches, with its total, from each
 * value's count. Where every value has matches, the list as asked: a filter added then would
 * narrow nothing and might only steer a planner away from the sort's index.
 */
export function narrowedByCounts<Query extends ListQuery<CollectionName>>(
  query: Query,
  field: string,
  counted: readonly { value: string; total: number }[],
): { query: Query; total: number } {
  const total = counted.reduce((sum, c) => sum + c.total, 0);
  const having = counted.filter((c) => c.total > 0).map((c) => c.value);
  if (having.length === counted.length) return { query, total };
  return { query: { ...query, where: { ...query.where, [field]: having } }, total };
}
