import { issueSeverities, issueStatuses } from '../../model.js';
import type { ForeignIssue } from '../foreign.js';
import { isoDate, pageUrl } from '../foreign.js';
import type { NumberedLine } from '../import-jsonl.js';
import type { ImportProblem } from '../import-run.js';
import { cellProblem, csvIssues, emailIn } from './csv-format.js';

const oneOf = <T extends string>(values: readonly T[], value: string): T | undefined =>
  values.find((v) => v === value.trim().toLowerCase());

/**
 * A plain CSV of issues, columns by name in any order (docs/import.md): `id` and `title` required;
 * `description`, `status`, `severity`, `labels` (separated by `;`), `assignee` (an email),
 * `created` and `closed` (RFC 3339) optional.
 */
export function plainCsvIssues(
  file: string,
  lines: AsyncIterable<NumberedLine>,
): AsyncIterable<ForeignIssue | ImportProblem> {
  return csvIssues(file, lines, ['id', 'title'], (row) => {
    const id = row.get('id').trim();
    if (id === '')
      return cellProblem(
        file,
        row,
        'id',
        'empty: every row needs an id, which makes a second import find it',
      );
    const status = row.get('status') === '' ? 'open' : oneOf(issueStatuses, row.get('status'));
    if (!status) return cellProblem(file, row, 'status', `expected one of ${issueStatuses.join(', ')}`);
    const severity = row.get('severity') === '' ? 'medium' : oneOf(issueSeverities, row.get('severity'));
    if (!severity) return cellProblem(file, row, 'severity', `expected one of ${issueSeverities.join(', ')}`);
    const created = row.get('created');
    const createdAt = created === '' ? null : isoDate(created);
    if (created !== '' && createdAt === null)
      return cellProblem(file, row, 'created', `not a date: ${JSON.stringify(created)}`);
    const assignee = row.get('assignee');
    if (assignee !== '' && emailIn(assignee) === null)
      return cellProblem(file, row, 'assignee', 'expected an email address');
    const description = row.get('description');
    return {
      line: row.line,
      external: { source: 'csv', id, ...pageUrl(row.get('url') || null) },
      stableId: id,
      title: row.get('title'),
      description: description === '' ? null : description,
      status,
      severity,
      labels: row
        .get('labels')
        .split(';')
        .map((label) => label.trim())
        .filter((label) => label !== ''),
      assigneeEmail: emailIn(assignee),
      createdAt,
      statusAt: isoDate(row.get('closed')),
      columns: {
        id: 'id',
        title: 'title',
        description: 'description',
        labels: 'labels',
        assignee: 'assignee',
      },
    };
  });
}
