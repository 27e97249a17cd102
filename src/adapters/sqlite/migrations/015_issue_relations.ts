/**
 * Migration 15: relations between issues, and what issues show of them.
 *
 * A relation is one row (`source_id` <type> `target_id`), read from both ends: its list indexes by
 * source and by target carry the type, so a walk of the `blocks` graph (the cycle check) reads
 * only index entries. The rows are counted in `list_counts` as every collection's are (inserts by
 * the adapter, deletes by a trigger); no column of a relation ever changes.
 *
 * Issues get `parent_id` (for `GET /issues?parentId=`), indexed only where set, as the optional
 * references of migration 7 are; existing rows get `"parentId":null,"blockedBy":0,"subIssues":0`
 * at the end of their JSON text, which keeps the order of their other members.
 * Frozen once released: the tables and columns are listed here, not derived from the code.
 */

/** The filter columns of relations counted in list_counts. */
export const relationCountedColumns: Readonly<Record<string, readonly string[]>> = {
  issue_relations: ['source_id', 'target_id', 'type'],
};

const counted = ['source_id', 'target_id', 'type'];
const key = (expression: string) => `coalesce(${expression}, char(0))`;
const keysOf = counted.map(
  (column) => `('issue_relations', old.workspace_id, '${column}', ${key(`old.${column}`)})`,
);

export const issueRelations = `
CREATE TABLE issue_relations (
  pk INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  workspace_id TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  version INTEGER NOT NULL,
  source_id TEXT NOT NULL,
  target_id TEXT NOT NULL,
  type TEXT NOT NULL,
  data TEXT NOT NULL
) STRICT;
CREATE INDEX issue_relations_recent ON issue_relations (workspace_id, created_at, id);
CREATE INDEX issue_relations_by_source_id ON issue_relations (workspace_id, source_id, created_at, id, type);
CREATE INDEX issue_relations_by_target_id ON issue_relations (workspace_id, target_id, created_at, id, type);
CREATE INDEX issue_relations_by_type ON issue_relations (workspace_id, type, created_at, id);
CREATE TRIGGER issue_relations_count_delete AFTER DELETE ON issue_relations BEGIN
  UPDATE list_counts SET n = n - 1 WHERE (collection, workspace_id, field, value) IN (VALUES ('issue_relations', old.workspace_id, '', ''), ${keysOf.join(', ')});
END;
ALTER TABLE issues ADD COLUMN parent_id TEXT;
CREATE INDEX issues_by_parent_id ON issues (workspace_id, parent_id, created_at, id) WHERE parent_id IS NOT NULL;
UPDATE issues SET data = substr(data, 1, length(data) - 1) || ',"parentId":null,"blockedBy":0,"subIssues":0}';
`;
