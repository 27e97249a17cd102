/**
 * Migration 23: saved views, a workspace's named queries (`/views`).
 *
 * A view is filtered by its `resource` only; lists walk it newest first (`views_recent`), by its
 * resource, or by update time (`sort=updatedAt`, as migration 17 made for the other tables).
 * The rows are counted in `list_counts` as every collection's are (the adapter counts an insert,
 * a trigger counts a delete); the resource is not a counted column: a workspace holds few views,
 * and the rows of one resource are counted where they are read.
 * Frozen once released: the table and columns are listed here, not derived from the code.
 */
export const savedViews = `
CREATE TABLE views (
  pk INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  workspace_id TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  version INTEGER NOT NULL,
  resource TEXT NOT NULL,
  data TEXT NOT NULL
) STRICT;
CREATE INDEX views_recent ON views (workspace_id, created_at, id);
CREATE INDEX views_by_resource ON views (workspace_id, resource, created_at, id);
CREATE INDEX views_sorted_updated ON views (workspace_id, updated_at, id);
CREATE TRIGGER views_count_delete AFTER DELETE ON views BEGIN
  UPDATE list_counts SET n = n - 1 WHERE (collection, workspace_id, field, value) IN (VALUES ('views', old.workspace_id, '', ''));
END;
`;
