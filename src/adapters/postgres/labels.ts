import type { LabelMatch, LabelStore } from '../../core/port/index.js';
import { accountOf } from './account-routes.js';
import type { Conn } from './connection.js';
import type { Conditions } from './sql.js';

/** Issues by label, through `issue_labels` (workspace, label, issue pk): migration 16. */

/**
 * Adds the label filter to `into`: one semi-join a label, and one for the labels of `any`. The
 * planner (which, unlike SQLite's, keeps statistics of each label) probes the table's key for
 * each row it walks, or reads a rare label's issues and fetches them by key.
 */
export function addLabels(account: string, workspace: string, match: LabelMatch, into: Conditions): void {
  const carries = (labels: string) =>
    `EXISTS (SELECT 1 FROM issue_labels WHERE issue_labels.account_id = ${account} ` +
    `AND issue_labels.account_id = issues.account_id AND issue_labels.workspace_id = ${workspace} ` +
    `AND label ${labels} AND issue_pk = issues.pk)`;
  for (const label of match.all ?? []) into.add((p) => carries(`= ${p}`), label);
  if (match.none !== undefined && match.none.length > 0) {
    into.add((p) => `NOT ${carries(`= ANY(${p}::text[])`)}`, match.none);
  }
  if (match.any === undefined) return;
  if (match.any.length === 0) into.clauses.push('FALSE');
  else into.add((p) => carries(`= ANY(${p}::text[])`), match.any);
}

/** The labels of a workspace with their counts (`GET /labels`): an index-only scan of the table. */
export function postgresLabels(conn: Conn): LabelStore {
  return {
    async list({ workspaceId, after, limit }) {
      const accountId = await accountOf(conn, workspaceId);
      await conn.consistent();
      const rows = await conn.rows<{ name: string; issueCount: number }>(
        `SELECT label AS name, COUNT(*)::int AS "issueCount" FROM issue_labels WHERE account_id = $3 AND workspace_id = $1${after === undefined ? '' : ' AND label > $4'} GROUP BY label ORDER BY label LIMIT $2`,
        after === undefined ? [workspaceId, limit, accountId] : [workspaceId, limit, accountId, after],
      );
      const total =
        (await conn.value<number>(
          'SELECT COUNT(DISTINCT label)::int FROM issue_labels WHERE account_id = $2 AND workspace_id = $1',
          [workspaceId, accountId],
        )) ?? 0;
      return { rows, total };
    },
  };
}
