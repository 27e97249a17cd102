/**
 * Relations between issues, and what issues show of them. A relation is one row (`source_id`
 * <type> `target_id`), read from both ends: its indexes by source and by target carry the type,
 * so a walk of the `blocks` graph (the cycle check) can read index entries only.
 *
 * Issues get `parent_id` (for `GET /issues?parentId=`), indexed only where set, as the optional
 * references of migration 5 are; existing rows get `"parentId":null,"blockedBy":0,"subIssues":0`
 * at the end of their JSON text (a text edit, not jsonb, which would reorder the members).
 * Frozen once released: the tables and columns are listed here, not derived from the code.
 */

const text = 'text COLLATE "C"';

export const issueRelations = `
CREATE TABLE issue_relations (
  pk bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id ${text} NOT NULL CONSTRAINT issue_relations_id UNIQUE,
  workspace_id ${text} NOT NULL,
  created_at ${text} NOT NULL,
  updated_at ${text} NOT NULL,
  version integer NOT NULL,
  source_id ${text} NOT NULL,
  target_id ${text} NOT NULL,
  type ${text} NOT NULL,
  data text NOT NULL
);
CREATE INDEX issue_relations_recent ON issue_relations (workspace_id, created_at, id);
CREATE INDEX issue_relations_by_source_id ON issue_relations (workspace_id, source_id, created_at, id) INCLUDE (type);
CREATE INDEX issue_relations_by_target_id ON issue_relations (workspace_id, target_id, created_at, id) INCLUDE (type);
ALTER TABLE issues ADD COLUMN parent_id ${text};
CREATE INDEX issues_by_parent_id ON issues (workspace_id, parent_id, created_at DESC, id DESC) WHERE parent_id IS NOT NULL;
UPDATE issues SET data = left(data, -1) || ',"parentId":null,"blockedBy":0,"subIssues":0}';
`;
