/**
 * Migration 26: exact totals of the issue lists that combine two of the filters many issues share
 * (status, severity, project), or a label with one of them, without counting rows.
 *
 * Two filters (`status=open&severity=high`) were counted through the narrower one's index, the
 * other checked in each entry: 38 ms at a million issues. A label with a filter
 * (`labels=x&status=open`, `-label:x status:blocked`) was counted from the label's issues, each
 * read by key: 0.5–0.8 s. Now both are kept counts, in step with every write as list_counts is:
 *
 * - `list_counts` also counts the issues of each pair of values of two of those columns, under
 *   the field `<column>+<column>` and the value of each joined by char(31) (NULL as char(0), as
 *   ever). The adapter counts an insert (migration 6); triggers follow an update and a delete.
 * - `issue_label_field_counts` counts, per workspace and label, the issues carrying it with each
 *   value of each of those columns. The adapter counts an insert (labels.ts); a trigger follows an
 *   update that changes the labels or one of the columns, and a delete, from the row's old and
 *   new values alone (not from `issue_labels`, whose own triggers may run before or after).
 *
 * What it costs: an insert adds three to its counts in the batch the adapter writes at the end of
 * a write group, and three more per label; a change of status moves two pair counts and one count
 * per label. Outcome and assignee are left out: few issues share one, and their indexes find
 * those few at once.
 * Frozen once released: the columns are listed here, not derived from the code.
 */

/** The issue columns whose pairs, and whose values among a label's issues, are counted. */
export const sharedColumns = ['project_id', 'status', 'severity'] as const;

/** The counted pairs of those columns, each as its `list_counts` field names it. */
export const countedPairs: readonly (readonly [string, string])[] = [
  ['project_id', 'status'],
  ['project_id', 'severity'],
  ['status', 'severity'],
];

/** A pair's field in `list_counts`. */
export const pairField = ([a, b]: readonly [string, string]): string => `${a}+${b}`;

const key = (expression: string) => `coalesce(${expression}, char(0))`;
const pairValue = (row: string, [a, b]: readonly [string, string]) =>
  `${key(`${row}.${a}`)} || char(31) || ${key(`${row}.${b}`)}`;
const pairKeys = (row: 'old' | 'new') =>
  countedPairs.map(
    (pair) => `('issues', ${row}.workspace_id, '${pairField(pair)}', ${pairValue(row, pair)})`,
  );
const changed = sharedColumns.map((column) => `old.${column} IS NOT new.${column}`).join(' OR ');

/** One row per (label, column, value) of an issue's labels (`row`'s, old or new) and columns. */
const labelFieldRows = (row: 'old' | 'new') =>
  `(SELECT DISTINCT value AS label FROM json_each(${row}.data, '$.labels')) AS l, ` +
  `(VALUES ${sharedColumns.map((column) => `('${column}', ${key(`${row}.${column}`)})`).join(', ')}) AS f`;

/** The label counts of every existing issue. */
const labelFieldBackfill = `
INSERT INTO issue_label_field_counts (workspace_id, label, field, value, n)
${sharedColumns
  .map(
    (column) =>
      `SELECT issues.workspace_id, issue_labels.label, '${column}', ${key(`issues.${column}`)}, COUNT(*) FROM issue_labels JOIN issues ON issues.pk = issue_labels.issue_pk GROUP BY 1, 2, 4`,
  )
  .join('\nUNION ALL\n')};`;

/** The pair counts of every existing issue. */
const pairBackfill = countedPairs
  .map(
    (pair) =>
      `INSERT INTO list_counts (collection, workspace_id, field, value, n)
SELECT 'issues', workspace_id, '${pairField(pair)}', ${key(pair[0])} || char(31) || ${key(pair[1])}, COUNT(*) FROM issues GROUP BY 2, 4;`,
  )
  .join('\n');

/**
 * Both counts of the existing issues: the seeding benchmark, which writes its rows by plain SQL,
 * runs these too. (An object: the migration's file exports its SQL as its one string.)
 */
export const backfill = { labelFields: labelFieldBackfill, pairs: pairBackfill };

export const pairAndLabelCounts = `
CREATE TABLE issue_label_field_counts (
  workspace_id TEXT NOT NULL,
  label TEXT NOT NULL,
  field TEXT NOT NULL,
  value TEXT NOT NULL,
  n INTEGER NOT NULL,
  PRIMARY KEY (workspace_id, label, field, value)
) WITHOUT ROWID;
CREATE TRIGGER issues_count_pairs_update AFTER UPDATE OF ${sharedColumns.join(', ')} ON issues
WHEN ${changed} BEGIN
  UPDATE list_counts SET n = n - 1 WHERE (collection, workspace_id, field, value) IN (VALUES ${pairKeys('old').join(', ')});
  INSERT INTO list_counts (collection, workspace_id, field, value, n) VALUES
    ${pairKeys('new')
      .map((k) => `${k.slice(0, -1)}, 1)`)
      .join(',\n    ')}
  ON CONFLICT (collection, workspace_id, field, value) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER issues_count_pairs_delete AFTER DELETE ON issues BEGIN
  UPDATE list_counts SET n = n - 1 WHERE (collection, workspace_id, field, value) IN (VALUES ${pairKeys('old').join(', ')});
END;
CREATE TRIGGER issues_label_fields_update AFTER UPDATE ON issues
WHEN ${changed} OR json_extract(old.data, '$.labels') IS NOT json_extract(new.data, '$.labels') BEGIN
  UPDATE issue_label_field_counts SET n = n - 1 WHERE workspace_id = old.workspace_id
    AND (label, field, value) IN (SELECT l.label, f.column1, f.column2 FROM ${labelFieldRows('old')});
  INSERT INTO issue_label_field_counts (workspace_id, label, field, value, n)
    SELECT new.workspace_id, l.label, f.column1, f.column2, 1 FROM ${labelFieldRows('new')} WHERE true
    ON CONFLICT (workspace_id, label, field, value) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER issues_label_fields_delete AFTER DELETE ON issues BEGIN
  UPDATE issue_label_field_counts SET n = n - 1 WHERE workspace_id = old.workspace_id
    AND (label, field, value) IN (SELECT l.label, f.column1, f.column2 FROM ${labelFieldRows('old')});
END;
${labelFieldBackfill}
${pairBackfill}
`;
