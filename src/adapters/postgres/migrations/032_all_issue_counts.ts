import { allIssueCountsBackfill } from '../counts/backfill.js';

/**
 * Migration 32: the totals of the issue lists with archived issues, with the others
 * (`archived=true`) or alone (`archived=only`), kept in `issue_list_counts` (migration 30) by the
 * adapter's own writes of issues (counts/issue-counts.ts): field `all, archived too`, every issue
 * of the workspace. At a million issues such a list counted them on read in 0.25 s. Issues
 * written beside the adapter are not counted.
 * Frozen once released.
 */
export const allIssueCounts = allIssueCountsBackfill;
