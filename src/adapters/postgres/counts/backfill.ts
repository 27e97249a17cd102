/**
 * The statements that count the issues there are into the kept counts (counts/issue-counts.ts):
 * migrations 29 to 32 run them once, and a benchmark that inserts issues beside the adapter runs
 * them again. Frozen with those migrations: their SQL includes these texts.
 */

/** Each outcome's live issues by status and severity (migration 29). */
export const outcomeIssueCountsBackfill = `INSERT INTO outcome_issue_counts (account_id, workspace_id, outcome_id, status, severity, issues)
  SELECT account_id, workspace_id, outcome_id, status, severity, COUNT(*)::int FROM issues
  WHERE outcome_id IS NOT NULL AND archived_at IS NULL
  GROUP BY account_id, workspace_id, outcome_id, status, severity;`;

/** The issue lists' totals (migration 30). */
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

/**
 * The issue lists' totals by label, alone and with a project, a status or a severity, and each
 * label's issues archived ones included (migration 31).
 */
export const issueLabelCountsBackfill = `INSERT INTO issue_list_counts (account_id, workspace_id, field, value, issues)
  SELECT account_id, workspace_id, 'label, archived too', label, COUNT(*) FROM issue_labels
    GROUP BY account_id, workspace_id, label
  UNION ALL SELECT l.account_id, l.workspace_id, 'label', l.label, COUNT(*) FROM issue_labels l
    JOIN issues i ON i.account_id = l.account_id AND i.pk = l.issue_pk WHERE i.archived_at IS NULL
    GROUP BY l.account_id, l.workspace_id, l.label
  UNION ALL SELECT l.account_id, l.workspace_id, 'label+project_id', l.label || chr(31) || i.project_id, COUNT(*)
    FROM issue_labels l JOIN issues i ON i.account_id = l.account_id AND i.pk = l.issue_pk
    WHERE i.archived_at IS NULL GROUP BY l.account_id, l.workspace_id, l.label, i.project_id
  UNION ALL SELECT l.account_id, l.workspace_id, 'label+status', l.label || chr(31) || i.status, COUNT(*)
    FROM issue_labels l JOIN issues i ON i.account_id = l.account_id AND i.pk = l.issue_pk
    WHERE i.archived_at IS NULL GROUP BY l.account_id, l.workspace_id, l.label, i.status
  UNION ALL SELECT l.account_id, l.workspace_id, 'label+severity', l.label || chr(31) || i.severity, COUNT(*)
    FROM issue_labels l JOIN issues i ON i.account_id = l.account_id AND i.pk = l.issue_pk
    WHERE i.archived_at IS NULL GROUP BY l.account_id, l.workspace_id, l.label, i.severity;`;

/** The issue lists' totals by project, status and severity at once (migration 31). */
export const issueTripleCountsBackfill = `INSERT INTO issue_list_counts (account_id, workspace_id, field, value, issues)
  SELECT account_id, workspace_id, 'project_id+status+severity',
    project_id || chr(31) || status || chr(31) || severity, COUNT(*)
  FROM issues WHERE archived_at IS NULL GROUP BY account_id, workspace_id, project_id, status, severity;`;

/** A workspace's issues archived ones included (migration 32). */
export const allIssueCountsBackfill = `INSERT INTO issue_list_counts (account_id, workspace_id, field, value, issues)
  SELECT account_id, workspace_id, 'all, archived too', '', COUNT(*) FROM issues
  GROUP BY account_id, workspace_id;`;
