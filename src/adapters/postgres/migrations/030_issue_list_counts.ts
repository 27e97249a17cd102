import { issueListCountsBackfill } from '../counts/backfill.js';

/**
 * Migration 30: the exact totals of the issue lists that filter by no more than two of project,
 * status and severity, kept by the adapter's own writes of issues (counts/issue-counts.ts): a
 * workspace's live issues in all (field ''), by each of those columns, and by each pair of them
 * (`project_id+status`, the two values joined by U+001F). At a million issues such a list counted
 * its matches on read in 0.3 s. Issues written beside the adapter are not counted.
 * Frozen once released.
 */
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
