import { outcomeIssueCountsBackfill } from '../counts/backfill.js';

/**
 * Migration 29: an outcome's live issues counted by status and severity, kept by the adapter's
 * own writes of issues (counts/issue-counts.ts), so that an outcome's summary reads at most 20 rows
 * where it walked every live issue of the outcome (3 ms at 10,000 issues). A row may hold 0, or
 * for a moment within a transaction less. The tally index of migration 25 gives way to one that
 * keys the update time too: each group's latest update is then one index probe.
 * Frozen once released.
 */
export const outcomeIssueCounts = `
CREATE TABLE outcome_issue_counts (
  account_id text COLLATE "C" NOT NULL,
  workspace_id text COLLATE "C" NOT NULL,
  outcome_id text COLLATE "C" NOT NULL,
  status text COLLATE "C" NOT NULL,
  severity text COLLATE "C" NOT NULL,
  issues integer NOT NULL,
  PRIMARY KEY (account_id, workspace_id, outcome_id, status, severity)
);
${outcomeIssueCountsBackfill}
DROP INDEX issues_tally_by_outcome_id;
CREATE INDEX issues_latest_by_outcome ON issues (workspace_id, outcome_id, status, severity, updated_at)
  INCLUDE (account_id) WHERE outcome_id IS NOT NULL AND archived_at IS NULL;
`;
