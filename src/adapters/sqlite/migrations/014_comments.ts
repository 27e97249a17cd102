/**
 * Migration 14: comments, and the count of them that issues, outcomes and decisions carry.
 *
 * A comment is on exactly one issue, outcome or decision, so each of those columns is null in
 * most rows: their list indexes are partial, as the optional references of migration 7 are, and
 * ascending, as migration 8 made the issues' (comments list oldest first). The rows are counted
 * in `list_counts` as every collection's are (migration 2): the adapter counts an insert
 * (migration 6), a trigger counts a delete; no filter column of a comment ever changes, so no
 * update trigger is needed.
 *
 * Rows that exist already get `"commentCount":0` at the end of their JSON text, which keeps the
 * order of their other members: a read sends that text as it is.
 * Frozen once released: the tables and columns are listed here, not derived from the code.
 */

/** The filter columns of comments counted in list_counts. */
export const commentCountedColumns: Readonly<Record<string, readonly string[]>> = {
  comments: ['issue_id', 'outcome_id', 'decision_id', 'author_id'],
};

const counted = ['issue_id', 'outcome_id', 'decision_id', 'author_id'];
const key = (expression: string) => `coalesce(${expression}, char(0))`;
const keysOf = counted.map(
  (column) => `('comments', old.workspace_id, '${column}', ${key(`old.${column}`)})`,
);

export const comments = `
CREATE TABLE comments (
  pk INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  workspace_id TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  version INTEGER NOT NULL,
  issue_id TEXT,
  outcome_id TEXT,
  decision_id TEXT,
  author_id TEXT,
  data TEXT NOT NULL
) STRICT;
CREATE INDEX comments_recent ON comments (workspace_id, created_at, id);
${counted
  .map(
    (column) =>
      `CREATE INDEX comments_by_${column} ON comments (workspace_id, ${column}, created_at, id) WHERE ${column} IS NOT NULL;`,
  )
  .join('\n')}
CREATE TRIGGER comments_count_delete AFTER DELETE ON comments BEGIN
  UPDATE list_counts SET n = n - 1 WHERE (collection, workspace_id, field, value) IN (VALUES ('comments', old.workspace_id, '', ''), ${keysOf.join(', ')});
END;
${['issues', 'outcomes', 'decisions']
  .map((table) => `UPDATE ${table} SET data = substr(data, 1, length(data) - 1) || ',"commentCount":0}';`)
  .join('\n')}
`;
