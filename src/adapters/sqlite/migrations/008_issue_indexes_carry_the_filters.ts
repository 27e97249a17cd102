/**
 * Migration 8: the list indexes of issues by status, severity and project also hold the other two
 * of those columns, the `recent` index holds the time of the last change, and every list index
 * of issues is in ascending order.
 *
 * A page or a total over two filters (`status=open&severity=high`) walks the index of one of
 * them (the adapter picks the one the fewest rows match); the other was checked in the table row,
 * one random row read per entry walked: 450–750 ms with the connection held at a million issues.
 * With the other filter in the index entry, SQLite checks it there (a covering index for a total,
 * a row read only for the rows of the page): 35–40 ms for the same totals. `updatedSince` alone
 * is checked in the entries of `recent` instead of in every row: 720 → about 190 ms with no match.
 *
 * What it costs: a change of status or severity rewrites three index entries instead of one (4%
 * more pages written to the log per transition), and any change rewrites the `recent` entry (no
 * more pages for an edit of the title: the page of the row is written anyway). The index of an
 * outcome or an assignee gets nothing more: few issues share one.
 *
 * Ascending order: SQLite reads an index backwards as cheaply as forwards, so newest-first
 * pages need no descending index, and a new row's entries then go at the end of their run of
 * equal keys rather than at its start, where each insert moved entries of the leaf it landed on
 * to its neighbours. With both changes a create writes 4% fewer pages to the log (3,000 creates).
 *
 * The indexes of optional references stay partial (migration 7).
 * Frozen once released: the columns are listed here, not derived from the code.
 */

const lists: ReadonlyArray<
  readonly [name: string, key: readonly string[], carried: readonly string[], partial?: string]
> = [
  ['issues_recent', [], ['updated_at']],
  ['issues_by_status', ['status'], ['severity', 'project_id']],
  ['issues_by_severity', ['severity'], ['status', 'project_id']],
  ['issues_by_project_id', ['project_id'], ['status', 'severity']],
  ['issues_by_outcome_id', ['outcome_id'], [], 'outcome_id IS NOT NULL'],
  ['issues_by_assignee_id', ['assignee_id'], [], 'assignee_id IS NOT NULL'],
];

export const issueIndexesCarryTheFilters = lists
  .flatMap(([name, key, carried, partial]) => {
    const columns = ['workspace_id', ...key, 'created_at', 'id', ...carried];
    return [
      `DROP INDEX ${name};`,
      `CREATE INDEX ${name} ON issues (${columns.join(', ')})${partial ? ` WHERE ${partial}` : ''};`,
    ];
  })
  .join('\n');
