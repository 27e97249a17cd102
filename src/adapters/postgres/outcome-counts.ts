/**
 * What PendingCounts writes through: Conn.atCommitMade (named structurally here, since the
 * transaction's memo holds the pending counts and the connection holds the memo).
 */
interface MakesAtCommit {
  atCommitMade(make: () => readonly { sql: string; params: readonly (string | number)[] }[]): void;
}

/**
 * An outcome's live issues by status and severity, kept in `outcome_issue_counts` (migration 29)
 * by the issue writes of this adapter (collection-writes.ts), so that an outcome's summary reads
 * at most 20 rows instead of walking every live issue of the outcome.
 *
 * What a transaction's writes change is summed in its memo, by group, and written with the COMMIT:
 * one statement per group changed, in the order of the groups' keys, first of the writes the
 * COMMIT carries (Conn.atCommitMade). Every transaction locks the count rows it changes at its
 * end, before its other commit writes and in that one order, so two of them changing the same
 * groups in opposite directions (one issue resolved, another reopened) never wait for each other
 * into a deadlock over them, and a count row is locked only for the COMMIT's round trip. A change
 * costs a map update: the statements are made once, at the commit (a copy of a whole database
 * writes every issue in one transaction).
 */

/** Where an issue counts: its outcome, status and severity while it is live and has an outcome. */
export interface CountedAs {
  outcomeId: string;
  status: string;
  severity: string;
}

/** Where `row` (an issue as stored) counts, or null where it does not (no outcome, or archived). */
export function countedAs(row: object): CountedAs | null {
  const issue = row as {
    outcomeId?: string | null;
    status?: string;
    severity?: string;
    archivedAt?: string | null;
  };
  if (issue.outcomeId == null || issue.archivedAt != null) return null;
  if (typeof issue.status !== 'string' || typeof issue.severity !== 'string') return null;
  return { outcomeId: issue.outcomeId, status: issue.status, severity: issue.severity };
}

/** The columns of an issue a count is read from, for a statement that returns them. */
export const countedColumns = 'outcome_id, status, severity, archived_at';

/** Where a row of countedColumns counts. */
export function countedAsColumns(row: Record<string, unknown>): CountedAs | null {
  if (row.outcome_id == null || row.archived_at != null) return null;
  return { outcomeId: String(row.outcome_id), status: String(row.status), severity: String(row.severity) };
}

const addSql =
  'INSERT INTO outcome_issue_counts AS c (account_id, workspace_id, outcome_id, status, severity, issues) ' +
  'VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (account_id, workspace_id, outcome_id, status, severity) ' +
  'DO UPDATE SET issues = c.issues + excluded.issues';

/** What one transaction's issue writes changed, not written yet (TransactionMemo.outcomeCounts). */
export class PendingCounts {
  private readonly changes = new Map<
    string,
    { accountId: string; workspaceId: string; group: CountedAs; by: number }
  >();
  private kept = false;

  /** An issue went from counting as `before` to counting as `after` (either null: not counted). */
  moved(
    conn: MakesAtCommit,
    accountId: string,
    workspaceId: string,
    before: CountedAs | null,
    after: CountedAs | null,
  ): void {
    if (before && after && sameGroup(before, after)) return;
    if (!before && !after) return;
    if (before) this.add(accountId, workspaceId, before, -1);
    if (after) this.add(accountId, workspaceId, after, 1);
    if (this.kept) return;
    this.kept = true;
    conn.atCommitMade(() => this.statements());
  }

  private add(accountId: string, workspaceId: string, group: CountedAs, by: number): void {
    const key = [accountId, workspaceId, group.outcomeId, group.status, group.severity].join('\u0000');
    const change = this.changes.get(key);
    if (change) change.by += by;
    else this.changes.set(key, { accountId, workspaceId, group, by });
  }

  /** The statements the COMMIT carries: the groups changed, in key order. */
  private statements(): { sql: string; params: (string | number)[] }[] {
    return [...this.changes]
      .filter(([, change]) => change.by !== 0)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, { accountId, workspaceId, group, by }]) => ({
        sql: addSql,
        params: [accountId, workspaceId, group.outcomeId, group.status, group.severity, by],
      }));
  }
}

const sameGroup = (a: CountedAs, b: CountedAs): boolean =>
  a.outcomeId === b.outcomeId && a.status === b.status && a.severity === b.severity;

/**
 * The tally of an outcome's live issues by status and severity, from the kept counts: each
 * group's latest update is one probe of `issues_latest_by_outcome` (its last entry). $1 the
 * account, $2 the workspace, $3 the outcome.
 */
export const keptTallySql =
  'SELECT c.status AS g0, c.severity AS g1, c.issues AS n, (SELECT i.updated_at FROM issues i ' +
  'WHERE i.account_id = $1 AND i.workspace_id = $2 AND i.outcome_id = $3 AND i.status = c.status ' +
  'AND i.severity = c.severity AND i.archived_at IS NULL ORDER BY i.updated_at DESC LIMIT 1) AS latest ' +
  'FROM outcome_issue_counts c WHERE c.account_id = $1 AND c.workspace_id = $2 AND c.outcome_id = $3 ' +
  'AND c.issues > 0';

/** Whether a tally is the one the counts keep: the live issues of one outcome by status and severity. */
export function isKeptTally(
  where: Record<string, unknown>,
  by: readonly string[],
): where is { outcomeId: string; archivedAt: null } {
  const keys = Object.keys(where);
  return (
    keys.length === 2 &&
    typeof where.outcomeId === 'string' &&
    Object.hasOwn(where, 'archivedAt') &&
    where.archivedAt === null &&
    by.length === 2 &&
    by[0] === 'status' &&
    by[1] === 'severity'
  );
}
