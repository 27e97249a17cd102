/**
 * Migration 26: `issues_updated` (workspace_id, updated_at) goes. `issues_sorted_updated`
 * (migration 15) is the same index with the id after, and serves every read the first served;
 * an issue's insert and every change of its update time kept two entries for one.
 * Frozen once released.
 */
export const indexDiet = `
DROP INDEX issues_updated;
`;
