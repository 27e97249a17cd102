import type { Tally } from '../../core/port/index.js';

/**
 * The groups of Collection.tally from the rows of its statement, which both SQL adapters write
 * alike: a column `g<i>` for each grouped column, `n` the group's count and `latest` its latest
 * update time.
 */
export function talliesOf(rows: readonly Record<string, unknown>[], groupedColumns: number): Tally[] {
  return rows
    .filter((row) => (row.n as number) > 0)
    .map((row) => ({
      values: Array.from({ length: groupedColumns }, (_, i) => row[`g${i}`] ?? null),
      count: row.n as number,
      latestUpdatedAt: row.latest as string,
    }));
}
