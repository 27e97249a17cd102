import type { IssueSeverity, IssueStatus } from '../../model.js';
import { type ForeignIssue, isoDate } from '../foreign.js';
import type { NumberedLine } from '../import-jsonl.js';
import type { ImportProblem } from '../import-run.js';
import { cellProblem, csvIssues, emailIn, mapName } from './csv-format.js';

const months: Record<string, string> = {
  jan: '01',
  feb: '02',
  mar: '03',
  apr: '04',
  may: '05',
  jun: '06',
  jul: '07',
  aug: '08',
  sep: '09',
  oct: '10',
  nov: '11',
  dec: '12',
};

/**
 * A date of Jira's CSV export: its default format `27/Nov/26 9:05 AM` (taken as UTC: the file does
 * not say which zone its author's profile had), or anything `Date` reads (ISO 8601).
 */
export function jiraDate(text: string): string | null {
  const m = /^(\d{1,2})\/([A-Za-z]{3})\/(\d{2}) (\d{1,2}):(\d{2}) ([AP]M)$/i.exec(text.trim());
  if (!m) return isoDate(text);
  const [, day, month, year, hour, minute, half] = m;
  const mm = months[(month ?? '').toLowerCase()];
  if (!mm) return null;
  const h = (Number(hour) % 12) + ((half ?? '').toUpperCase() === 'PM' ? 12 : 0);
  return isoDate(
    `20${year}-${mm}-${(day ?? '').padStart(2, '0')}T${String(h).padStart(2, '0')}:${minute}:00Z`,
  );
}

export const jiraPriorities: Record<string, IssueSeverity> = {
  highest: 'critical',
  blocker: 'critical',
  critical: 'critical',
  high: 'high',
  major: 'high',
  medium: 'medium',
  low: 'low',
  lowest: 'low',
  minor: 'low',
  trivial: 'low',
};

const statuses: Record<string, IssueStatus> = {
  open: 'open',
  'to do': 'open',
  backlog: 'open',
  'selected for development': 'open',
  reopened: 'open',
  'in progress': 'in_progress',
  'in review': 'in_progress',
  blocked: 'blocked',
  done: 'resolved',
  resolved: 'resolved',
  closed: 'closed',
};

/** Resolutions that end an issue without doing it. */
const undone = new Set(["won't do", "won't fix", 'duplicate', 'cannot reproduce', 'declined', 'incomplete']);

/** The status from the Status column, else from the Status Category column (To Do, In Progress, Done). */
export function jiraStatus(status: string, category: string, resolution: string): IssueStatus {
  const named =
    mapName(status, statuses) ??
    mapName(category, { 'to do': 'open', 'in progress': 'in_progress', done: 'resolved' } as const) ??
    'open';
  return named === 'resolved' && undone.has(resolution.trim().toLowerCase()) ? 'closed' : named;
}

/** Issues of Jira Cloud's CSV export (Filters → Export → CSV, all or current fields). */
export function jiraIssues(
  file: string,
  lines: AsyncIterable<NumberedLine>,
): AsyncIterable<ForeignIssue | ImportProblem> {
  return csvIssues(file, lines, ['Summary', 'Issue id', 'Created'], (row) => {
    const id = row.get('Issue id').trim();
    if (!/^\d+$/.test(id))
      return cellProblem(
        file,
        row,
        'Issue id',
        `expected Jira's numeric issue id, got ${JSON.stringify(id)}`,
      );
    const createdAt = jiraDate(row.get('Created'));
    if (createdAt === null)
      return cellProblem(file, row, 'Created', `not a date: ${JSON.stringify(row.get('Created'))}`);
    const priority = row.get('Priority');
    const severity = priority === '' ? 'medium' : mapName(priority, jiraPriorities);
    if (severity === undefined)
      return cellProblem(file, row, 'Priority', `unknown priority ${JSON.stringify(priority)}`);
    const description = row.get('Description');
    return {
      line: row.line,
      // The key people know (SHOP-101); Jira's numeric id, which a move keeps, derives the id here.
      external: { source: 'jira', id: row.get('Issue key').trim() || id },
      stableId: id,
      title: row.get('Summary'),
      description: description === '' ? null : description,
      status: jiraStatus(row.get('Status'), row.get('Status Category'), row.get('Resolution')),
      severity,
      labels: row.all('Labels'),
      assigneeEmail: emailIn(row.get('Assignee')),
      createdAt,
      statusAt: jiraDate(row.get('Resolved')) ?? jiraDate(row.get('Updated')),
      columns: {
        id: 'Issue id',
        title: 'Summary',
        description: 'Description',
        labels: 'Labels',
        assignee: 'Assignee',
      },
    };
  });
}
