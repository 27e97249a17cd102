import type { LabelMatch, LabelStore } from '../../core/port/index.js';
import { accountOf } from './account-routes.js';
import { type Conn, prepared, type Statement } from './connection.js';
import { labelListedField } from './counts/issue-counts.js';
import type { Conditions } from './sql.js';

/**
 * Issues by label, through `issue_labels` (account, workspace, label, issue pk): migration 16.
 * Kept by the statements below, in the transaction that writes the issue (the triggers that kept
 * it before went with migration 23: Citus runs triggers on its workers' shards, unsafely). Each
 * names the issue's account and workspace, so each reaches one shard, and reads the labels from
 * the text labelsText makes of them (never from an issue's stored text, which may hold a U+0000
 * PostgreSQL's JSON cannot read) with `issue_labels_of`, which leaves a text PostgreSQL cannot
 * read (a lone surrogate or a U+0000 in a label, which the storage port stores) unindexed rather
 * than refused: counts/issue-counts.ts counts no label of such an issue, as it finds none here.
 */

/** The issue $3 of account $1 and workspace $2, by its key. */
const issueRow = 'FROM issues WHERE account_id = $1 AND workspace_id = $2 AND id = $3';

/** Adds the labels of the text $4 to the issue (a label it carries already is kept). */
const addSql = prepared(
  'INSERT INTO issue_labels (account_id, workspace_id, label, issue_pk) ' +
    'SELECT issues.account_id, issues.workspace_id, l.label, issues.pk FROM issues, issue_labels_of($4) AS l(label) ' +
    'WHERE issues.account_id = $1 AND issues.workspace_id = $2 AND issues.id = $3 ON CONFLICT DO NOTHING',
);

/** The issue's rows of the table (by its key's index: account, workspace, label, pk). */
const ofIssue = `DELETE FROM issue_labels WHERE account_id = $1 AND workspace_id = $2 AND issue_pk = (SELECT pk ${issueRow}) `;

/** Removes the labels of the text $4 from the issue. */
const removeSql = prepared(`${ofIssue}AND label IN (SELECT issue_labels_of($4))`);

/**
 * Removes the labels of deleted issues: $3 their pks and $4 their labels as labelsText makes
 * them, pairwise (not their stored texts, which PostgreSQL's JSON cannot always read).
 */
const dropDeletedSql =
  'DELETE FROM issue_labels WHERE account_id = $1 AND workspace_id = $2 AND (label, issue_pk) IN ' +
  '(SELECT l.label, d.pk FROM unnest($3::bigint[], $4::text[]) AS d(pk, labels), issue_labels_of(d.labels) AS l(label))';

/** An issue's labels as the text issue_labels_of reads (an object with the list). */
export const labelsText = (labels: readonly string[]): string => JSON.stringify({ labels });

/** The statements that keep an issue's labels, by what the issue's write is. */
export const issueLabelWrites = {
  /** After its insert; nothing for an issue without labels. */
  added(accountId: string, workspaceId: string, id: string, labels: readonly string[]): Statement[] {
    return labels.length === 0
      ? []
      : [{ sql: addSql, params: [accountId, workspaceId, id, labelsText(labels)] }];
  },
  /** After its update, the labels it no longer carries. */
  removed(accountId: string, workspaceId: string, id: string, labels: readonly string[]): Statement {
    return { sql: removeSql, params: [accountId, workspaceId, id, labelsText(labels)] };
  },
  /** After a delete of issues, with their pks and labels. */
  deletedRows(
    accountId: string,
    workspaceId: string,
    rows: readonly { pk: number; labels: readonly string[] }[],
  ): Statement {
    return {
      sql: dropDeletedSql,
      params: [accountId, workspaceId, rows.map((r) => r.pk), rows.map((r) => labelsText(r.labels))],
    };
  },
};

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

/** The kept counts of a workspace's labels, by the parameters of its account and workspace. */
const keptLabels = (account: string, workspace: string) =>
  `FROM issue_list_counts WHERE account_id = ${account} AND workspace_id = ${workspace} ` +
  `AND field = '${labelListedField}' AND issues > 0`;

/**
 * The labels of a workspace with their counts (`GET /labels`). In a read, from the counts the
 * writes keep (counts/issue-counts.ts: a range of the counts' key, however many issues carry
 * them); a write transaction, whose own changes to them go with its COMMIT, counts the label
 * index.
 */
export function postgresLabels(conn: Conn): LabelStore {
  return {
    async list({ workspaceId, after, limit }) {
      const accountId = await accountOf(conn, workspaceId);
      await conn.consistent();
      const from = after === undefined ? '' : ' AND label > $4';
      const params =
        after === undefined ? [workspaceId, limit, accountId] : [workspaceId, limit, accountId, after];
      if (!conn.writing) {
        const rows = await conn.rows<{ name: string; issueCount: number }>(
          `SELECT value AS name, issues::int AS "issueCount" ${keptLabels('$3', '$1')}${after === undefined ? '' : ' AND value > $4'} ORDER BY value LIMIT $2`,
          params,
        );
        const total = await conn.value<number>(`SELECT COUNT(*)::int ${keptLabels('$2', '$1')}`, [
          workspaceId,
          accountId,
        ]);
        return { rows, total: total ?? 0 };
      }
      const rows = await conn.rows<{ name: string; issueCount: number }>(
        `SELECT label AS name, COUNT(*)::int AS "issueCount" FROM issue_labels WHERE account_id = $3 AND workspace_id = $1${from} GROUP BY label ORDER BY label LIMIT $2`,
        params,
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
