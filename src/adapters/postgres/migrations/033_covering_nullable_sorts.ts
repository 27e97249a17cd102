/**
 * Migration 33: the indexes of the two sorts whose key is null in most issues (`dueOn`, `estimate`)
 * carry the columns a list filters on most (project, status, severity, archived) and the row's
 * key, so that a page sorted by one of them finds its rows in the index alone and reads only
 * those rows (collection-lists.ts, `coveredSorts`). The issues with a due day (or an estimate)
 * come first in the ascending order; where none of them matches the filter (another project's,
 * or every one of them blocked), the page walked past each of them and read its row first: 85 to
 * 120 ms at a million issues, 20,000 of them due; 4 to 7 ms read from the index.
 * The table is analyzed again: PostgreSQL keeps the statistics of an index's expression (the due
 * day with '~' for none) with the index, and a dropped index takes them along. Without them the
 * planner guessed that a third of the issues fall in any due range, and read `dueBefore=2020-01-01`
 * (no issue) through the creation order: 680 ms at a million issues, against 7 ms.
 * Frozen once released.
 */
export const coveringNullableSorts = `
DROP INDEX issues_sorted_due_on;
DROP INDEX issues_sorted_estimate;
CREATE INDEX issues_sorted_due_on ON issues (workspace_id, COALESCE(due_on, '~'), id) INCLUDE (account_id, pk, project_id, status, severity, archived_at, due_on);
CREATE INDEX issues_sorted_estimate ON issues (workspace_id, COALESCE(estimate, 1000000000), id) INCLUDE (account_id, pk, project_id, status, severity, archived_at, estimate);
ANALYZE issues;
`;
