import { z } from 'zod';
import type { IssueSeverity } from '../../model.js';
import { type ForeignIssue, isoDate, pageUrl } from '../foreign.js';
import type { NumberedLine } from '../import-jsonl.js';
import type { ImportProblem } from '../import-run.js';
import { checkedElements } from './checked-elements.js';
import { jsonArrayElements } from './json-array.js';

/**
 * An issue as GitHub's REST API returns it ("List repository issues",
 * GET /repos/{owner}/{repo}/issues): the fields this import reads; others are ignored.
 */
const githubIssue = z.looseObject({
  id: z.number().int(),
  number: z.number().int(),
  title: z.string(),
  body: z.string().nullable().optional(),
  state: z.enum(['open', 'closed']),
  state_reason: z.string().nullable().optional(),
  labels: z.array(z.union([z.string(), z.looseObject({ name: z.string() })])).default([]),
  assignee: z
    .looseObject({ login: z.string(), email: z.string().nullable().optional() })
    .nullable()
    .optional(),
  created_at: z.string(),
  updated_at: z.string().nullable().optional(),
  closed_at: z.string().nullable().optional(),
  pull_request: z.unknown().optional(),
  html_url: z.string().nullable().optional(),
  repository_url: z.string().nullable().optional(),
});

/**
 * `owner/repo#42`, as GitHub itself names an issue across repositories, from the issue's
 * `repository_url` (or its `html_url`); `#42` when the file says neither.
 */
function githubKey(gh: z.infer<typeof githubIssue>): string {
  const repository =
    /^https:\/\/api\.github\.com\/repos\/([^/]+\/[^/]+)$/.exec(gh.repository_url ?? '')?.[1] ??
    /^https:\/\/github\.com\/([^/]+\/[^/]+)\/issues\/\d+$/.exec(gh.html_url ?? '')?.[1];
  return `${repository ?? ''}#${gh.number}`;
}

/** A label that says how severe the issue is: `severity: high`, `priority/critical`, `P0`… */
export function severityOfLabels(labels: readonly string[]): IssueSeverity {
  for (const label of labels) {
    const name = label.toLowerCase();
    if (/\b(critical|blocker|urgent|p0)\b/.test(name)) return 'critical';
    if (/\b(high|major|p1)\b/.test(name)) return 'high';
    if (/\b(low|minor|trivial|p3|p4)\b/.test(name)) return 'low';
  }
  return 'medium';
}

/** GitHub issues (pull requests skipped: the API lists them among issues). */
export async function* githubIssues(
  file: string,
  lines: AsyncIterable<NumberedLine>,
): AsyncIterable<ForeignIssue | ImportProblem> {
  for await (const element of checkedElements(file, jsonArrayElements(lines), githubIssue)) {
    if ('message' in element) {
      yield element;
      continue;
    }
    const gh = element.value;
    if (gh.pull_request !== undefined) continue;
    const createdAt = isoDate(gh.created_at);
    if (createdAt === null) {
      yield {
        file,
        line: element.line,
        field: 'created_at',
        message: `not a date: ${JSON.stringify(gh.created_at)}`,
      };
      continue;
    }
    const labels = gh.labels.map((label) => (typeof label === 'string' ? label : label.name));
    yield {
      line: element.line,
      external: { source: 'github', id: githubKey(gh), ...pageUrl(gh.html_url) },
      stableId: String(gh.id),
      title: gh.title,
      description: gh.body ?? null,
      // Closed as completed is done; closed as not planned (or a duplicate) is closed without being done.
      status:
        gh.state === 'open'
          ? 'open'
          : gh.state_reason === 'completed' || !gh.state_reason
            ? 'resolved'
            : 'closed',
      severity: severityOfLabels(labels),
      labels,
      assigneeEmail: gh.assignee?.email ?? null,
      createdAt,
      statusAt: isoDate(gh.closed_at) ?? isoDate(gh.updated_at),
      columns: {
        id: 'id',
        title: 'title',
        description: 'body',
        labels: 'labels',
        assignee: 'assignee.email',
      },
    };
  }
}
