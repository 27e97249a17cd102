import { createIssue, transitionIssue } from '../families/issues/operations.js';
import { issueCreateSchema } from '../families/issues/schema.js';
import { createProject } from '../families/projects/operations.js';
import { projectKey } from '../families/projects/schema.js';
import type { ExternalRef, IssueSeverity, IssueStatus } from '../model.js';
import type { OperationContext } from '../pipeline/context.js';
import type { Ids } from '../runtime.js';
import { derivedId } from './derived-ids.js';
import type { ImportItem, ImportProblem, ImportSource } from './import-run.js';

/** An issue of another tracker, mapped to this one's fields (each format's file says how). */
export interface ForeignIssue {
  line: number;
  /**
   * Where it came from, kept on the issue (`external`): its tracker, its id there as people know it
   * (`SHOP-101`) and its page. A second import finds the issue by it.
   */
  external: ExternalRef;
  /**
   * The id that never changes in the other tracker (Jira's and GitHub's numeric ids, which a move
   * keeps while the key changes), from which the issue's id here is derived: a second import finds
   * by it too an issue whose key changed, or one imported before issues kept their source.
   */
  stableId: string;
  title: string;
  description: string | null;
  status: IssueStatus;
  severity: IssueSeverity;
  labels: string[];
  /** The assignee's email, when the file gives one. */
  assigneeEmail: string | null;
  /** RFC 3339 UTC with milliseconds; null when the file does not say (created as of the import). */
  createdAt: string | null;
  /** When it reached its status (resolved, closed…), when the file says; else its last update. */
  statusAt: string | null;
  /** The file's column (or field) each mapped value came from, for problems to name. */
  columns: { id: string; title: string; description: string; labels: string; assignee: string };
}

const epoch = '1970-01-01T00:00:00.000Z';

/** A date as the API writes it, or null when `Date` cannot read it. */
export function isoDate(text: string | null | undefined): string | null {
  if (!text) return null;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

/** A page's address to keep in `external.url`: an http(s) URL of at most 2000 characters, else none. */
export function pageUrl(text: string | null | undefined): { url?: string } {
  if (!text || text.length > 2000 || !/^https?:\/\//.test(text)) return {};
  try {
    return { url: new URL(text).href };
  } catch {
    return {};
  }
}

/** A context whose time is `now` and whose new record gets `id`: an operation then creates it as of then. */
function asOf(ctx: OperationContext, now: string, id: string): OperationContext {
  const ids: Ids = { id: () => id, uuid: () => ctx.ids.uuid() };
  return { ...ctx, now, ids };
}

/** The project issues go into: the workspace's with the key, or one created with it (named by it). */
function projectItem(source: string, key: string, line: number): ImportItem {
  const item: ImportItem = {
    line,
    family: 'projects',
    id: '',
    references: [],
    async prepare(ctx) {
      const found = await ctx.tx.collections.projects.findOne(ctx.tenant.workspaceId, { key });
      item.id = found?.id ?? derivedId('prj', ctx.now, ctx.tenant.workspaceId, source, `project:${key}`);
    },
    async exists(ctx) {
      return (await ctx.tx.collections.projects.findOne(ctx.tenant.workspaceId, { key })) !== null;
    },
    async create(ctx) {
      await createProject(asOf(ctx, ctx.now, item.id), { name: key, key });
    },
  };
  return item;
}

/**
 * The import items of another tracker's issues: the project first (`--project`), then each issue,
 * found by its `external` (source and id) when an earlier import made it, else under an id derived
 * from (workspace, source, stable id), created through the API's create
 * (as of the issue's creation time) and moved to its status through the API's transition.
 */
export function foreignSource(
  source: string,
  file: string,
  project: string | undefined,
  rows: () => AsyncIterable<ForeignIssue | ImportProblem>,
): ImportSource {
  return async function* read() {
    const key = projectKey.safeParse(project);
    if (!key.success) {
      yield {
        file,
        line: 1,
        field: '--project',
        message: `not a project key: ${key.error.issues[0]?.message ?? ''}`,
      };
      return;
    }
    yield projectItem(source, key.data, 1);
    // External id → the line of the first row that has it: a second row with it is another issue
    // the file gives the same id, which the import could not tell from the first.
    const firstLines = new Map<string, number>();
    const firstStable = new Map<string, number>();
    for await (const row of rows()) {
      if ('message' in row) {
        yield row;
        continue;
      }
      const first = firstLines.get(row.external.id) ?? firstStable.get(row.stableId);
      if (first === undefined) {
        firstLines.set(row.external.id, row.line);
        firstStable.set(row.stableId, row.line);
      }
      const problems = [...issueProblems(file, row)];
      if (first !== undefined)
        problems.unshift({
          file,
          line: row.line,
          field: row.columns.id,
          message: `the id ${row.external.id} is the id of line ${first} too: each issue needs an id of its own`,
        });
      if (problems.length > 0) yield* problems;
      else yield issueItem(source, key.data, row);
    }
  };
}

/** What the API's create would refuse in the issue: every problem, each naming its column. */
function issueProblems(file: string, row: ForeignIssue): ImportProblem[] {
  const input = issueCreateSchema.safeParse({
    projectId: 'prj_00000000000000000000',
    title: row.title,
    description: row.description,
    labels: row.labels,
    external: row.external,
  });
  if (input.success) return [];
  return input.error.issues.map((issue) => {
    const at = String(issue.path[0] ?? 'title');
    const field = (at === 'external' ? 'id' : at) as keyof ForeignIssue['columns'];
    return { file, line: row.line, field: row.columns[field] ?? field, message: issue.message };
  });
}

function issueItem(source: string, projectKeyText: string, row: ForeignIssue): ImportItem {
  let assigneeId: string | null = null;
  const item: ImportItem = {
    line: row.line,
    family: 'issues',
    id: '',
    references: [],
    async prepare(ctx) {
      // The issue an earlier import made of it, by where it came from; else the id it gets, derived
      // from its stable id (without a creation time the epoch stands in), which is also how an
      // import made before issues kept their source finds what it created.
      const found = await ctx.tx.collections.issues.findOne(ctx.tenant.workspaceId, {
        'external.source': row.external.source,
        'external.id': row.external.id,
      });
      item.id =
        found?.id ?? derivedId('iss', row.createdAt ?? epoch, ctx.tenant.workspaceId, source, row.stableId);
      assigneeId = null;
      if (row.assigneeEmail === null) return;
      const user = await ctx.tx.tenancy.getUserByEmail(row.assigneeEmail);
      const member = user && (await ctx.tx.tenancy.getMembership(ctx.tenant.workspaceId, user.id));
      if (member) assigneeId = member.userId;
    },
    async check() {
      return row.assigneeEmail !== null && assigneeId === null
        ? [
            {
              field: row.columns.assignee,
              message: `${row.assigneeEmail} is not a member of the workspace: add them first`,
            },
          ]
        : [];
    },
    async exists(ctx) {
      return (await ctx.tx.collections.issues.get(ctx.tenant.workspaceId, item.id)) !== null;
    },
    async create(ctx) {
      const project = await ctx.tx.collections.projects.findOne(ctx.tenant.workspaceId, {
        key: projectKeyText,
      });
      if (!project) throw new Error(`no project ${projectKeyText}`);
      const createdAt = row.createdAt ?? ctx.now;
      const created = await createIssue(asOf(ctx, createdAt, item.id), {
        projectId: project.id,
        title: row.title,
        description: row.description,
        severity: row.severity,
        labels: row.labels,
        assigneeId,
        external: row.external,
      });
      if (row.status === 'open') return;
      const at = row.statusAt !== null && row.statusAt > createdAt ? row.statusAt : createdAt;
      await transitionIssue(asOf(ctx, at, item.id), created.id, { to: row.status });
    },
  };
  return item;
}
