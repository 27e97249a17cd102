import type { ListQuery } from '../../../core/port/index.js';
import { rankedValues } from '../../shared/ranked-narrowing.js';
import { type KeptTotal, keptListTotal, keptSum } from './issue-counts.js';

/**
 * A read of issues sorted by status or severity: the sort field's values that have matches, by
 * the kept counts. The page then reads only their ranks in the sort's index: sorted by `-status`
 * in a project whose issues are all open, it would otherwise walk every closed, resolved and
 * blocked issue of the workspace first (1.2 s at a million issues).
 */
export interface RankedSort {
  field: string;
  /** The values the list lets through, in rank order, each with its kept total. */
  values: readonly string[];
  kept: readonly KeptTotal[];
}

/**
 * The kept totals of each value a list sorted by a ranked field lets through, or null where they
 * are not kept (a label with another filter, a search, a range) or where the list lets one value
 * through (its filter already narrows the page to that value's ranks).
 */
export function rankedSort(query: ListQuery<'issues'>): RankedSort | null {
  const ranked = rankedValues('issues', query);
  if (ranked === undefined) return null;
  const { field, values } = ranked;
  const kept: KeptTotal[] = [];
  for (const value of values) {
    const total = keptListTotal({
      ...query,
      where: { ...query.where, [field]: value },
    } as ListQuery<'issues'>);
    if (total === null) return null;
    kept.push(total);
  }
  return { field, values, kept };
}

/** The kept totals of a RankedSort's values, in one statement: an array in their order. */
export function rankedSortSql(values: number): string {
  const totals = Array.from({ length: values }, (_, i) => {
    const at = 3 + i * 4;
    return `${keptSum(`$${at}`, `$${at + 1}`)} - ${keptSum(`$${at + 2}`, `$${at + 3}`)}`;
  });
  return `SELECT ARRAY[${totals.join(', ')}]::int[] AS totals`;
}

/** rankedSortSql's parameters. */
export const rankedSortParams = (accountId: string, workspaceId: string, ranked: RankedSort) => [
  accountId,
  workspaceId,
  ...ranked.kept.flatMap((kept) => [
    kept.counts.field,
    kept.counts.values,
    kept.less?.field ?? '',
    kept.less?.values ?? [],
  ]),
];
