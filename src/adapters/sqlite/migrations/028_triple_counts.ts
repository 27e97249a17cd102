/**
 * Migration 28: the exact total of the issue lists that filter by project, status and severity
 * at once, without counting rows: `list_counts` also counts the issues of each (project, status,
 * severity), under the field `project_id+status+severity` and the three values joined by
 * char(31) (NULL as char(0), as ever). The adapter counts an insert (migration 6); triggers
 * follow an update of one of the three and a delete. Such a list, none of whose issues matched,
 * walked the 180,000 open issues of a project checking each one's severity (24 ms at a million
 * issues); it now reads its total first and answers at once.
 * Frozen once released: the columns are listed here, not derived from the code.
 */

/** The columns counted together, in their order in the value. */
const columns = ['project_id', 'status', 'severity'] as const;

/** The count's field in `list_counts`. */
const field = 'project_id+status+severity';

const key = (expression: string) => `coalesce(${expression}, char(0))`;
const tripleKey = (row: 'old' | 'new') =>
  `('issues', ${row}.workspace_id, '${field}', ${columns.map((c) => key(`${row}.${c}`)).join(' || char(31) || ')})`;
const changed = columns.map((column) => `old.${column} IS NOT new.${column}`).join(' OR ');

/** The triple counts of every existing issue. */
const backfill = `INSERT INTO list_counts (collection, workspace_id, field, value, n)
SELECT 'issues', workspace_id, '${field}', ${columns.map(key).join(' || char(31) || ')}, COUNT(*) FROM issues GROUP BY 2, 4;`;

export const tripleCounts = `
CREATE TRIGGER issues_count_triple_update AFTER UPDATE OF ${columns.join(', ')} ON issues
WHEN ${changed} BEGIN
  UPDATE list_counts SET n = n - 1 WHERE (collection, workspace_id, field, value) = ${tripleKey('old')};
  INSERT INTO list_counts (collection, workspace_id, field, value, n) VALUES (${tripleKey('new').slice(1, -1)}, 1)
  ON CONFLICT (collection, workspace_id, field, value) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER issues_count_triple_delete AFTER DELETE ON issues BEGIN
  UPDATE list_counts SET n = n - 1 WHERE (collection, workspace_id, field, value) = ${tripleKey('old')};
END;
${backfill}
`;

/**
 * What the adapter and the seeding benchmark take from this migration: its columns, its field,
 * and its backfill (an object: the migration's file exports its SQL as its one string).
 */
export const triple = { columns, field, backfill };
