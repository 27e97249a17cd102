import type { LabelMatch, LabelStore } from '../../../core/port/index.js';
import type { SqlConditions } from '../../shared/sql-conditions.js';
import type { Conn } from '../engine/types.js';

/**
 * Issues by label, through `issue_labels` (workspace, label, issue pk) and its counts
 * `issue_label_counts` (migration 18).
 */

const insertSql =
  'INSERT OR IGNORE INTO issue_labels (workspace_id, label, issue_pk) SELECT ?, value, ? FROM json_each(?)';

/** Indexes a new issue's labels (an update's and a delete's are kept by triggers). */
export function insertLabels(conn: Conn, workspaceId: string, pk: number, labels: readonly string[]): void {
  if (labels.length > 0) conn.run(insertSql, [workspaceId, pk, JSON.stringify(labels)]);
}

const countSql = 'SELECT n FROM issue_label_counts WHERE workspace_id = ? AND label = ?';

/** How many issues of the workspace carry `label`. */
const labelCount = (conn: Conn, workspaceId: string, label: string): number =>
  conn.value<number>(countSql, [workspaceId, label]) ?? 0;

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

/**
 * The total of a list asking for one label and nothing else (but, as lists do by default, the
 * rows not archived): its count, less its archived issues, found through the index of those
 * (few) rows. Null for any other list, which is counted.
 */
export function oneLabelTotal(
  conn: Conn,
  workspaceId: string,
  match: LabelMatch,
  where: Partial<Record<string, unknown>>,
): number | null {
  const entries = Object.entries(where).filter(([, value]) => value !== undefined);
  const [label, extra] = match.all ?? [];
  if (label === undefined || extra !== undefined || match.any !== undefined || match.none !== undefined)
    return null;
  if (entries.some(([field, value]) => field !== 'archivedAt' || value !== null)) return null;
  const count = labelCount(conn, workspaceId, label);
  if (entries.length === 0) return count;
  const archived =
    conn.value<number>(
      `SELECT COUNT(*) FROM issues INDEXED BY issues_archived WHERE workspace_id = ? AND archived_at IS NOT NULL AND ${carries}`,
      [workspaceId, workspaceId, label],
    ) ?? 0;
  return count - archived;
}

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
