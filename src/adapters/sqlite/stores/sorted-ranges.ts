import type { CollectionName, ListQuery } from '../../../core/port/index.js';
import { addRanges } from '../../shared/collection-clauses.js';
import type { CollectionTable } from '../../shared/collection-table.js';
import type { Conn } from '../engine/types.js';
import { scoped } from './collection-sql.js';

/**
 * The indexes of a table's nullable range fields, on their sort keys (migration 21), and its
 * index in creation order (migration 8).
 */
const rangeIndexes: Partial<Record<string, { ranges: Record<string, string>; ordered: string }>> = {
  issues: {
    ranges: { dueOn: 'issues_sorted_due_on', estimate: 'issues_sorted_estimate' },
    ordered: 'issues_recent',
  },
};

/**
 * At most this many index entries in a range: its rows are read through the range's index and
 * sorted (a few milliseconds). Beyond, the page is walked in creation order instead, where it
 * fills the sooner the more rows match; left to itself SQLite reads the range through its index
 * and sorts every match, however many (20,000 issues due: 290 ms a page at a million issues).
 */
const sortedRangeAtMost = 2_000;

/**
 * For a list bounded on one indexed range field that more than `sortedRangeAtMost` rows fall in
 * (a bounded count of the index's entries, which holds the key: no row is read), the range's
 * index, which counts the total, and the table's index in creation order, which the page walks
 * when no one filter's index does; else null.
 */
export function manyInRange<Name extends CollectionName>(
  conn: Conn,
  shape: CollectionTable,
  query: ListQuery<Name>,
): { counted: string; ordered: string } | null {
  const indexes = rangeIndexes[shape.table];
  const bounded = Object.entries(query.range ?? {}).filter(([, bounds]) => bounds !== undefined);
  const [range] = bounded;
  const index = range && indexes?.ranges[range[0]];
  if (!indexes || !index || bounded.length !== 1) return null;
  const conditions = scoped(query.workspaceId);
  addRanges(shape, Object.fromEntries(bounded), conditions);
  const entries = conn.value<number>(
    `SELECT COUNT(*) FROM (SELECT 1 FROM ${shape.table} INDEXED BY ${index} WHERE ${conditions.sql} LIMIT ?)`,
    [...conditions.params, sortedRangeAtMost + 1],
  );
  if ((entries ?? 0) <= sortedRangeAtMost) return null;
  return { counted: `${shape.table} INDEXED BY ${index}`, ordered: indexes.ordered };
}
