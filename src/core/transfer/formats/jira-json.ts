import { z } from 'zod';
import { type ForeignIssue, isoDate, pageUrl } from '../foreign.js';
import type { NumberedLine } from '../import-jsonl.js';
import type { ImportProblem } from '../import-run.js';
import { checkedElements } from './checked-elements.js';
import { emailIn, mapName } from './csv-format.js';
import { jiraPriorities, jiraStatus } from './jira.js';
import { objectMemberElements } from './json-objects.js';

const named = z.looseObject({ name: z.string() }).nullable().optional();

/**
 * An issue of Jira Cloud's search answer (GET /rest/api/3/search, or /rest/api/2/search): the
 * fields this import reads; others are ignored. `description` is Atlassian Document Format in
 * version 3 and text in version 2.
 */
const jiraIssue = z.looseObject({
  id: z.string().regex(/^\d+$/, "expected Jira's numeric issue id"),
  key: z.string().regex(/^[A-Z][A-Z0-9_]*-\d+$/, 'expected an issue key such as SHOP-101'),
  self: z.string().optional(),
  fields: z.looseObject({
    summary: z.string(),
    description: z.unknown().optional(),
    status: z.looseObject({ name: z.string(), statusCategory: named }).nullable().optional(),
    resolution: named,
    priority: named,
    labels: z.array(z.string()).nullable().optional(),
    assignee: z.looseObject({ emailAddress: z.string().nullable().optional() }).nullable().optional(),
    created: z.string(),
    updated: z.string().nullable().optional(),
    resolutiondate: z.string().nullable().optional(),
  }),
});

/** Nodes of Atlassian Document Format that hold a block of text: each ends a line. */
const blocks = new Set(['paragraph', 'heading', 'codeBlock', 'listItem', 'blockquote', 'rule', 'tableRow']);

/**
 * The text of a description: as it is (REST API version 2), or the text of an Atlassian Document
 * Format tree (version 3), a line a block. The tree is walked with a stack of its own, not by
 * recursion, so no nesting can exhaust the call stack.
 */
export function descriptionText(value: unknown): string | null {
  if (typeof value === 'string') return value === '' ? null : value;
  if (value === null || typeof value !== 'object') return null;
  let text = '';
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === '\n') {
      if (!text.endsWith('\n')) text += '\n';
      continue;
    }
    if (node === null || typeof node !== 'object') continue;
    const { type, text: leaf, content } = node as { type?: unknown; text?: unknown; content?: unknown };
    if (type === 'text' && typeof leaf === 'string') text += leaf;
    else if (type === 'hardBreak') text += '\n';
    if (typeof type === 'string' && blocks.has(type)) stack.push('\n');
    if (Array.isArray(content)) for (let i = content.length - 1; i >= 0; i--) stack.push(content[i]);
  }
  const trimmed = text.trim();
  return trimmed === '' ? null : trimmed;
}

/** The issue's page: `<site>/browse/<key>`, the site taken from the issue's `self` link. */
function browseUrl(self: string | undefined, key: string): { url?: string } {
  if (!self) return {};
  try {
    return pageUrl(`${new URL(self).origin}/browse/${key}`);
  } catch {
    return {};
  }
}

/** Issues of Jira's search answers (`{"issues": […]}`), one page or several one after another. */
export async function* jiraJsonIssues(
  file: string,
  lines: AsyncIterable<NumberedLine>,
): AsyncIterable<ForeignIssue | ImportProblem> {
  for await (const element of checkedElements(
    file,
    objectMemberElements(lines, 'issues', "Jira's search answer"),
    jiraIssue,
  )) {
    if ('message' in element) {
      yield element;
      continue;
    }
    const { id, key, self, fields } = element.value;
    const createdAt = isoDate(fields.created);
    if (createdAt === null) {
      yield {
        file,
        line: element.line,
        field: 'fields.created',
        message: `not a date: ${JSON.stringify(fields.created)}`,
      };
      continue;
    }
    const priority = fields.priority?.name ?? '';
    const severity = priority === '' ? 'medium' : mapName(priority, jiraPriorities);
    if (severity === undefined) {
      yield {
        file,
        line: element.line,
        field: 'fields.priority.name',
        message: `unknown priority ${JSON.stringify(priority)}`,
      };
      continue;
    }
    yield {
      line: element.line,
      external: { source: 'jira', id: key, ...browseUrl(self, key) },
      stableId: id,
      title: fields.summary,
      description: descriptionText(fields.description),
      status: jiraStatus(
        fields.status?.name ?? '',
        fields.status?.statusCategory?.name ?? '',
        fields.resolution?.name ?? '',
      ),
      severity,
      labels: fields.labels ?? [],
      assigneeEmail: emailIn(fields.assignee?.emailAddress ?? ''),
      createdAt,
      statusAt: isoDate(fields.resolutiondate) ?? isoDate(fields.updated),
      columns: {
        id: 'key',
        title: 'fields.summary',
        description: 'fields.description',
        labels: 'fields.labels',
        assignee: 'fields.assignee.emailAddress',
      },
    };
  }
}
