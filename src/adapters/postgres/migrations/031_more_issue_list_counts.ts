import { issueLabelCountsBackfill, issueTripleCountsBackfill } from '../counts/backfill.js';

/**
 * Migration 31: the exact totals of the issue lists that filter by one label (carried, or not
 * carried: the filter's total less the label's), alone or with one of project, status and
 * severity, or by all three of those, kept in `issue_list_counts` (migration 30) by the
 * adapter's own writes of issues (counts/issue-counts.ts): fields `label` and
 * `label+project_id`, `label+status`, `label+severity` (the label, U+001F, the value),
 * `project_id+status+severity`; and `label, archived too`, each label's issues archived ones
 * included, for `GET /labels`. At a million issues such a list counted its
 * matches on read in 0.1 to 1.2 s. Issues written beside the adapter are not counted.
 * Frozen once released.
 */
export const moreIssueListCounts = `${issueLabelCountsBackfill}\n${issueTripleCountsBackfill}`;
