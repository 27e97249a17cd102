/**
 * Comments, and the count of them that issues, outcomes and decisions carry. A comment is on
 * exactly one issue, outcome or decision, so each of those columns is null in most rows: their
 * list indexes are partial, as the optional references' are (migration 5). Text columns compare
 * in byte order ("C"), as every ordered column here does.
 *
 * Rows that exist already get `"commentCount":0` at the end of their JSON text (a text edit, not
 * jsonb, which would reorder the members).
 * Frozen once released: the tables and columns are listed here, not derived from the code.
 */

const text = 'text COLLATE "C"';
const threads = ['issue_id', 'outcome_id', 'decision_id', 'author_id'];

export const comments = `
CREATE TABLE comments (
  pk bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id ${text} NOT NULL CONSTRAINT comments_id UNIQUE,
  workspace_id ${text} NOT NULL,
  created_at ${text} NOT NULL,
  updated_at ${text} NOT NULL,
  version integer NOT NULL,
  issue_id ${text},
  outcome_id ${text},
  decision_id ${text},
  author_id ${text},
  data text NOT NULL
);
CREATE INDEX comments_recent ON comments (workspace_id, created_at, id);
${threads
  .map(
    (column) =>
      `CREATE INDEX comments_by_${column} ON comments (workspace_id, ${column}, created_at, id) WHERE ${column} IS NOT NULL;`,
  )
  .join('\n')}
${['issues', 'outcomes', 'decisions']
  .map((table) => `UPDATE ${table} SET data = left(data, -1) || ',"commentCount":0}';`)
  .join('\n')}
`;
