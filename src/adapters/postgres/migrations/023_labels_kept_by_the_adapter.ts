/**
 * Migration 23: `issue_labels` is kept by the adapter's own statements (labels.ts), in the
 * writing transaction as before, instead of by triggers on `issues`. Citus refuses to distribute
 * a table with triggers unless `citus.enable_unsafe_triggers` is on, and then runs them on the
 * workers' shards, where their writes escape the coordinator's view of the transaction. The table
 * and its rows stay as they are. Frozen once released.
 */
export const labelsKeptByTheAdapter = `
DROP TRIGGER IF EXISTS issues_labels_insert ON issues;
DROP TRIGGER IF EXISTS issues_labels_update ON issues;
DROP TRIGGER IF EXISTS issues_labels_delete ON issues;
DROP FUNCTION IF EXISTS issue_labels_follow();
`;
