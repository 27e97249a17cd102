/**
 * Migration 25: `issues_updated` (workspace_id, updated_at) goes. `issues_sorted_updated`
 * (migration 17) is the same index with the id after: it serves every read the first served
 * (`updatedSince`, counted, read and sorted by update time) and is written by the same updates,
 * so an issue's insert and every change of its update time kept two entries for one.
 * Frozen once released.
 */
export const indexDiet = `
DROP INDEX issues_updated;
`;
