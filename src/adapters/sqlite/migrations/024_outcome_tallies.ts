/**
 * Migration 24: the live issues of each outcome in the order an outcome's summary counts them,
 * by status and then severity, with their update time. The summary's tally reads this index
 * alone and groups as it walks (migration 8's index of an outcome's issues is in creation order,
 * for its list: grouping from it sorted every issue of the outcome, 4 ms at 10,000).
 * Frozen once released.
 */
export const outcomeTallies = `
CREATE INDEX issues_tally_by_outcome_id ON issues (workspace_id, outcome_id, status, severity, updated_at)
  WHERE outcome_id IS NOT NULL AND archived_at IS NULL;
`;

/**
 * The tallies an index of this migration serves, by table: the filter column the index is for,
 * and the columns it groups by, in its order. Its rows are the live ones (`archived_at IS NULL`).
 */
export const tallyIndexes: Readonly<Record<string, { column: string; by: readonly string[] }>> = {
  issues: { column: 'outcome_id', by: ['status', 'severity'] },
};
