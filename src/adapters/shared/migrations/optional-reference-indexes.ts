/**
 * The SQL of SQLite's migration 7 and PostgreSQL's migration 5, which is the same text on both:
 * the list indexes of optional references (an issue's outcome and assignee, an outcome's owner, a
 * decision's outcome and successor, a time entry's issue) leave out the rows where the reference
 * is null. Each adapter's migration file says why it pays there.
 * Frozen once released: databases of both adapters have run this text, so it never changes; the
 * indexes are listed here, not derived from the code.
 */

const optionalReferences: ReadonlyArray<readonly [table: string, column: string]> = [
  ['issues', 'outcome_id'],
  ['issues', 'assignee_id'],
  ['outcomes', 'owner_id'],
  ['decisions', 'outcome_id'],
  ['decisions', 'superseded_by'],
  ['time_entries', 'issue_id'],
];

export const partialIndexesOfOptionalReferences = optionalReferences
  .flatMap(([table, column]) => [
    `DROP INDEX ${table}_by_${column};`,
    `CREATE INDEX ${table}_by_${column} ON ${table} (workspace_id, ${column}, created_at DESC, id DESC) ` +
      `WHERE ${column} IS NOT NULL;`,
  ])
  .join('\n');
