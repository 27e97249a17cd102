/**
 * Migration 30: the exact totals of the issue lists that filter by no more than two of project,
 * status and severity, kept by the adapter's own writes of issues (counts/issue-counts.ts): a
 * workspace's live issues in all (field ''), by each of those columns, and by each pair of them
 * (`project_id+status`, the two values joined by U+001F). At a million issues such a list counted
 * its matches on read in 0.3 s. Issues written beside the adapter are not counted.
 * Frozen once released.
 */

/** The counts of the issues there are (a benchmark that inserts issues beside the adapter runs it too). */
export const issueListCountsBackfill = `INSERT INTO issue_list_counts (account_id, workspace_id, field, value, issues)
  SELECT account_id, workspace_id, '', '', COUNT(*) FROM issues WHERE archived_at IS NULL
    GROUP BY account_id, workspace_id
  UNION ALL SELECT account_id, workspace_id, 'project_id', project_id, COUNT(*) FROM issues
    WHERE archived_at IS NULL GROUP BY account_id, workspace_id, project_id
  UNION ALL SELECT account_id, workspace_id, 'status', status, COUNT(*) FROM issues
    WHERE archived_at IS NULL GROUP BY account_id, workspace_id, status
  UNION ALL SELECT account_id, workspace_id, 'severity', severity, COUNT(*) FROM issues
    WHERE archived_at IS NULL GROUP BY account_id, workspace_id, severity
  UNION ALL SELECT account_id, workspace_id, 'project_id+status', project_id || chr(31) || status, COUNT(*)
    FROM issues WHERE archived_at IS NULL GROUP BY account_id, workspace_id, project_id, status
  UNION ALL SELECT account_id, workspace_id, 'project_id+severity', project_id || chr(31) || severity, COUNT(*)
    FROM issues WHERE archived_at IS NULL GROUP BY account_id, workspace_id, project_id, severity
  UNION ALL SELECT account_id, workspace_id, 'status+severity', status || chr(31) || severity, COUNT(*)
    FROM issues WHERE archived_at IS NULL GROUP BY account_id, workspace_id, status, severity;`;

export const issueListCounts = `
CREATE TABLE issue_list_counts (
  account_id text COLLATE "C" NOT NULL,
  workspace_id text COLLATE "C" NOT NULL,
  field text COLLATE "C" NOT NULL,
  value text COLLATE "C" NOT NULL,
  issues bigint NOT NULL,
  PRIMARY KEY (account_id, workspace_id, field, value)
);
${issueListCountsBackfill}
`;
