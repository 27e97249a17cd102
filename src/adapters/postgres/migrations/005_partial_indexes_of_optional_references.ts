/**
 * The list indexes of optional references (an issue's outcome and assignee, an outcome's owner,
 * a decision's outcome and successor, a time entry's issue) leave out the rows where the
 * reference is null: no list filters by "none", and `column = $1` (a strict operator) implies
 * `column IS NOT NULL`, so the planner uses them as before, while an insert without the
 * reference writes no entry in them.
 * Frozen once released: the indexes are listed here, not derived from the code.
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
