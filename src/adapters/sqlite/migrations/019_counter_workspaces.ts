/**
 * Migration 19: each counter names its workspace (CounterStore takes it, and a copy moves it with
 * the counter). The only counters are issue numbers, `issues:<project id>`: existing ones get the
 * workspace of their project ('' for one whose project is gone).
 * Frozen once released.
 */
export const counterWorkspaces = `
ALTER TABLE counters ADD COLUMN workspace_id TEXT NOT NULL DEFAULT '';
UPDATE counters SET workspace_id = coalesce(
  (SELECT projects.workspace_id FROM projects WHERE counters.name = 'issues:' || projects.id), '');
`;
