/**
 * Migration 2: exact list totals without counting rows. `list_counts` holds, per collection
 * table and workspace, the number of rows (field '' and value ''), and the number of rows with
 * each value of each filter column (a NULL value as the empty string's sibling char(0)). Triggers
 * keep it in step with every insert, delete and filter change, inside the writing transaction,
 * so a total read from it is exactly what COUNT(*) would say, at the cost of one lookup.
 * Frozen once released: the tables and columns are listed here, not derived from the code.
 */

/** The filter columns counted per table (a unique column such as issues.number is not worth it). */
const counted: Record<string, readonly string[]> = {
  projects: [],
  issues: ['project_id', 'outcome_id', 'status', 'severity', 'assignee_id'],
  outcomes: ['project_id', 'status', 'owner_id'],
  context_items: ['outcome_id', 'kind'],
  decisions: ['project_id', 'outcome_id', 'status', 'superseded_by'],
  time_entries: ['outcome_id', 'issue_id', 'user_id'],
};

/** The key a value is counted under: NULL becomes char(0), which no filter value can hold. */
const key = (expression: string) => `coalesce(${expression}, char(0))`;

function countsOf(table: string, columns: readonly string[]): string {
  const keys = (row: 'new' | 'old') => [
    `('${table}', ${row}.workspace_id, '', '')`,
    ...columns.map((column) => `('${table}', ${row}.workspace_id, '${column}', ${key(`${row}.${column}`)})`),
  ];
  const statements = [
    `CREATE TRIGGER ${table}_count_insert AFTER INSERT ON ${table} BEGIN
  INSERT INTO list_counts (collection, workspace_id, field, value, n) VALUES
    ${keys('new')
      .map((k) => `${k.slice(0, -1)}, 1)`)
      .join(',\n    ')}
  ON CONFLICT (collection, workspace_id, field, value) DO UPDATE SET n = n + 1;
END;`,
    `CREATE TRIGGER ${table}_count_delete AFTER DELETE ON ${table} BEGIN
  UPDATE list_counts SET n = n - 1 WHERE (collection, workspace_id, field, value) IN (VALUES ${keys('old').join(', ')});
END;`,
    ...columns.map(
      (column) => `CREATE TRIGGER ${table}_count_${column} AFTER UPDATE OF ${column} ON ${table}
WHEN old.${column} IS NOT new.${column} BEGIN
  UPDATE list_counts SET n = n - 1
  WHERE collection = '${table}' AND workspace_id = old.workspace_id AND field = '${column}' AND value = ${key(`old.${column}`)};
  INSERT INTO list_counts (collection, workspace_id, field, value, n)
  VALUES ('${table}', new.workspace_id, '${column}', ${key(`new.${column}`)}, 1)
  ON CONFLICT (collection, workspace_id, field, value) DO UPDATE SET n = n + 1;
END;`,
    ),
    // Rows that exist already.
    `INSERT INTO list_counts (collection, workspace_id, field, value, n)
SELECT '${table}', workspace_id, '', '', COUNT(*) FROM ${table} GROUP BY workspace_id;`,
    ...columns.map(
      (column) => `INSERT INTO list_counts (collection, workspace_id, field, value, n)
SELECT '${table}', workspace_id, '${column}', ${key(column)}, COUNT(*) FROM ${table} GROUP BY workspace_id, ${column};`,
    ),
  ];
  return statements.join('\n');
}

export const listCounts = [
  `CREATE TABLE list_counts (
  collection TEXT NOT NULL,
  workspace_id TEXT NOT NULL,
  field TEXT NOT NULL,
  value TEXT NOT NULL,
  n INTEGER NOT NULL,
  PRIMARY KEY (collection, workspace_id, field, value)
) STRICT, WITHOUT ROWID;`,
  ...Object.entries(counted).map(([table, columns]) => countsOf(table, columns)),
].join('\n');

/** Which columns of a table have counts: the adapter reads totals from them. */
export const countedColumns: Readonly<Record<string, readonly string[]>> = counted;
