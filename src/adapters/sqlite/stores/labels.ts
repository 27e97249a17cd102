import type { LabelMatch, LabelStore } from '../../../core/port/index.js';
import type { SqlConditions } from '../../shared/sql-conditions.js';
import type { Conn } from '../engine/types.js';
import { sharedColumns } from '../migrations/026_pair_and_label_counts.js';

/**
 * Issues by label, through `issue_labels` (workspace, label, issue pk) and its counts
 * `issue_label_counts` (migration 18).
 */

const insertSql =
  'INSERT OR IGNORE INTO issue_labels (workspace_id, label, issue_pk) SELECT ?, value, ? FROM json_each(?)';

/** One more of each label with each of the issue's values of the shared columns (migration 26). */
const countFieldsSql =
  'INSERT INTO issue_label_field_counts (workspace_id, label, field, value, n) ' +
  'SELECT ?, l.value, f.column1, f.column2, 1 FROM (SELECT DISTINCT value FROM json_each(?)) AS l, ' +
  `(VALUES ${sharedColumns.map((column) => `('${column}', coalesce(?, char(0)))`).join(', ')}) AS f WHERE true ` +
  'ON CONFLICT (workspace_id, label, field, value) DO UPDATE SET n = n + 1';

/**
 * Indexes a new issue's labels, and counts them with its values of the shared columns (`shared`,
 * in `sharedColumns` order); an update's and a delete's are kept by triggers.
 */
export function insertLabels(
  conn: Conn,
  workspaceId: string,
  pk: number,
  labels: readonly string[],
  shared: readonly unknown[],
): void {
  if (labels.length === 0) return;
  const list = JSON.stringify(labels);
  conn.run(insertSql, [workspaceId, pk, list]);
  conn.run(countFieldsSql, [workspaceId, list, ...shared]);
}

const countSql = 'SELECT n FROM issue_label_counts WHERE workspace_id = ? AND label = ?';

/** How many issues of the workspace carry `label`. */
const labelCount = (conn: Conn, workspaceId: string, label: string): number =>
  conn.value<number>(countSql, [workspaceId, label]) ?? 0;

const fieldCountSql =
  'SELECT n FROM issue_label_field_counts WHERE workspace_id = ? AND label = ? AND field = ? AND value = ?';

/**
 * How many issues of the workspace carry `label` and match `key` (a kept count's key, as
 * countKey makes it: no field for every issue; else any of its values, or none of them), from
 * the kept counts; null when `key` is on a column the label's issues are not counted by.
 */
export function labelKeyCount(
  conn: Conn,
  workspaceId: string,
  label: string,
  key: { field: string; values: readonly string[]; not: boolean },
): number | null {
  const all = labelCount(conn, workspaceId, label);
  if (key.field === '') return all;
  if (!(sharedColumns as readonly string[]).includes(key.field)) return null;
  const sum = key.values.reduce(
    (n, value) => n + (conn.value<number>(fieldCountSql, [workspaceId, label, key.field, value]) ?? 0),
    0,
  );
  return key.not ? all - sum : sum;
}

/** The issue carries `label` (one probe of the table's key). */
const carries =
  'EXISTS (SELECT 1 FROM issue_labels WHERE workspace_id = ? AND label = ? AND issue_pk = issues.pk)';
const carriesAny = (n: number) =>
  `EXISTS (SELECT 1 FROM issue_labels WHERE workspace_id = ? AND label IN (${Array(n).fill('?').join(', ')}) AND issue_pk = issues.pk)`;
/** The issues carrying the labels, read from the table: the list's rows then are found by key. */
const carrying = (n: number) =>
  `pk IN (SELECT issue_pk FROM issue_labels WHERE workspace_id = ? AND label IN (${Array(n).fill('?').join(', ')}))`;

/**
 * Adds the label filter to `into`. Where the labels' issues are fewer than `few` (by their
 * counts), they are read from the label table and found by key (`driven`: the caller reads the
 * issues `NOT INDEXED` and sorts them); else the list walks its own index and probes the label
 * table for each row, which finds a page of a common label in a few hundred probes.
 */
export function addLabels(
  conn: Conn,
  workspaceId: string,
  match: LabelMatch,
  into: SqlConditions,
  few: number,
): { driven: boolean } {
  const all = match.all ?? [];
  const any = match.any;
  let narrowest = { label: '', rows: Number.POSITIVE_INFINITY };
  for (const label of all) {
    const rows = labelCount(conn, workspaceId, label);
    if (rows < narrowest.rows) narrowest = { label, rows };
  }
  const anyRows = any?.reduce((n, label) => n + labelCount(conn, workspaceId, label), 0);
  const byAny = any !== undefined && (anyRows as number) < narrowest.rows;
  const driving = byAny ? (anyRows as number) : narrowest.rows;
  const driven = driving < few;
  if (driven) {
    const labels = byAny ? (any as readonly string[]) : [narrowest.label];
    into.clauses.push(carrying(labels.length));
    into.params.push(workspaceId, ...labels);
  }
  for (const label of all) {
    if (driven && !byAny && label === narrowest.label) continue;
    into.clauses.push(carries);
    into.params.push(workspaceId, label);
  }
  if (any !== undefined && !(driven && byAny)) {
    if (any.length === 0) into.clauses.push('FALSE');
    else {
      into.clauses.push(carriesAny(any.length));
      into.params.push(workspaceId, ...any);
    }
  }
  if (match.none !== undefined && match.none.length > 0) {
    into.clauses.push(`NOT ${carriesAny(match.none.length)}`);
    into.params.push(workspaceId, ...match.none);
  }
  return { driven };
}

/** The condition that the issue carries `label`, and its parameters. */
export const carriesLabel = (workspaceId: string, label: string) => ({
  sql: carries,
  params: [workspaceId, label],
});

/** The labels of a workspace with their counts (`GET /labels`), read from the counts' key. */
export function sqliteLabels(conn: Conn): LabelStore {
  return {
    async list({ workspaceId, after, limit }) {
      const rows = conn.rows<{ name: string; issueCount: number }>(
        `SELECT label AS name, n AS issueCount FROM issue_label_counts WHERE workspace_id = ?${after === undefined ? '' : ' AND label > ?'} ORDER BY label LIMIT ?`,
        after === undefined ? [workspaceId, limit] : [workspaceId, after, limit],
      );
      const total =
        conn.value<number>('SELECT COUNT(*) FROM issue_label_counts WHERE workspace_id = ?', [workspaceId]) ??
        0;
      return { rows, total };
    },
  };
}
