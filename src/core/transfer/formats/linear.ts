import type { IssueSeverity, IssueStatus } from '../../model.js';
import { type ForeignIssue, isoDate, pageUrl } from '../foreign.js';
import type { NumberedLine } from '../import-jsonl.js';
import type { ImportProblem } from '../import-run.js';
import { cellProblem, csvIssues, emailIn, mapName } from './csv-format.js';

const priorities: Record<string, IssueSeverity> = {
  urgent: 'critical',
  high: 'high',
  medium: 'medium',
  low: 'low',
  'no priority': 'medium',
};

const statuses: Record<string, IssueStatus> = {
  backlog: 'open',
  todo: 'open',
  triage: 'open',
  'in progress': 'in_progress',
  'in review': 'in_progress',
  started: 'in_progress',
  blocked: 'blocked',
  done: 'resolved',
  completed: 'resolved',
  canceled: 'closed',
  cancelled: 'closed',
  duplicate: 'closed',
};

/**
 * The status: Completed or Canceled dates say the issue ended, whatever the team named its
 * states; otherwise the state's name, as Linear's default workflow names them.
 */
function linearStatus(status: string, completed: string | null, canceled: string | null): IssueStatus {
  if (completed !== null) return 'resolved';
  if (canceled !== null) return 'closed';
  return mapName(status, statuses) ?? 'open';
}

/** Issues of Linear's CSV export (Settings → Import/Export → Export CSV). */
export function linearIssues(
  file: string,
  lines: AsyncIterable<NumberedLine>,
): AsyncIterable<ForeignIssue | ImportProblem> {
  return csvIssues(file, lines, ['ID', 'Title', 'Created'], (row) => {
    const id = row.get('ID').trim();
    if (id === '') return cellProblem(file, row, 'ID', 'empty: every issue needs its Linear identifier');
    const createdAt = isoDate(row.get('Created'));
    if (createdAt === null)
      return cellProblem(file, row, 'Created', `not a date: ${JSON.stringify(row.get('Created'))}`);
    const priority = row.get('Priority');
    const severity = priority === '' ? 'medium' : mapName(priority, priorities);
    if (severity === undefined)
      return cellProblem(file, row, 'Priority', `unknown priority ${JSON.stringify(priority)}`);
    const completed = isoDate(row.get('Completed'));
    const canceled = isoDate(row.get('Canceled'));
    const description = row.get('Description');
    return {
      line: row.line,
      // Linear's CSV has no link to the issue; a `URL` column, when a file has one, is kept.
      external: { source: 'linear', id, ...pageUrl(row.get('URL') || null) },
      stableId: id,
      title: row.get('Title'),
      description: description === '' ? null : description,
      status: linearStatus(row.get('Status'), completed, canceled),
      severity,
      labels: row
        .get('Labels')
        .split(',')
        .map((label) => label.trim())
        .filter((label) => label !== ''),
      assigneeEmail: emailIn(row.get('Assignee')),
      createdAt,
      statusAt: completed ?? canceled ?? isoDate(row.get('Started')) ?? isoDate(row.get('Updated')),
      columns: {
        id: 'ID',
        title: 'Title',
        description: 'Description',
        labels: 'Labels',
        assignee: 'Assignee',
      },
    };
  });
}
