import { ApiError, notFound } from '../../errors.js';
import type { ExternalRef, Issue, IssueStatus } from '../../model.js';
import type { OperationContext } from '../../pipeline/context.js';
import type { Page } from '../../pipeline/pagination.js';
import type { StoredJson } from '../../port/index.js';
import { UniqueViolation } from '../../port/index.js';
import { insertComment } from '../comments/operations.js';
import { setArchived } from '../shared/archive.js';
import { dueRange, estimateRange } from '../shared/due-filters.js';
import { splitFilters } from '../shared/filters.js';
import { insertAndAnnounce } from '../shared/lifecycle.js';
import {
  firstVersion,
  getForWrite,
  getOr404,
  getStoredOr404,
  listPage,
  present,
  saveNextVersion,
} from '../shared/operations.js';
import { withQuery } from '../shared/query.js';
import { outcomeOfProject, referenced, referencedMember } from '../shared/references.js';
import { archivedFilter } from '../shared/schema.js';
import { applyChanges } from '../shared/update.js';
import { issueEvents } from './events.js';
import { labelMatchOf } from './label-filters.js';
import {
  type IssueCreate,
  type IssueListQuery,
  type IssuePatch,
  type IssueTransition,
  issueKeyPattern,
} from './schema.js';
import { canTransition, issueTransitions } from './transitions.js';

export type IssueView = ReturnType<typeof present<Issue>>;
export const presentIssue = (issue: Issue): IssueView => present(issue);

const resourceOf = (issue: Issue) => ({ type: 'issue', id: issue.id });

/** Creates an issue in a project of the caller's workspace, numbered next in that project. */
export async function createIssue(ctx: OperationContext, input: IssueCreate): Promise<IssueView> {
  const project = await referenced(ctx, 'projects', input.projectId, 'projectId');
  if (input.assigneeId) await referencedMember(ctx, input.assigneeId, 'assigneeId');
  if (input.outcomeId) await outcomeOfProject(ctx, input.outcomeId, project.id);
  const number = await ctx.tx.counters.next(ctx.tenant.workspaceId, `issues:${project.id}`);
  const issue: Issue = {
    id: ctx.ids.id('iss'),
    workspaceId: ctx.tenant.workspaceId,
    projectId: project.id,
    number,
    key: `${project.key}-${number}`,
    title: input.title,
    description: input.description ?? null,
    severity: input.severity ?? 'medium',
    status: 'open',
    outcomeId: input.outcomeId ?? null,
    assigneeId: input.assigneeId ?? null,
    labels: distinct(input.labels ?? []),
    resolvedAt: null,
    commentCount: 0,
    parentId: null,
    blockedBy: 0,
    subIssues: 0,
    archivedAt: null,
    external: input.external ?? null,
    dueOn: input.dueOn ?? null,
    estimate: input.estimate ?? null,
    ...firstVersion(ctx),
  };
  if (issue.external) await externalFree(ctx, issue.external);
  try {
    return await insertAndAnnounce(ctx, 'issues', issue, {
      type: issueEvents.created,
      resourceType: 'issue',
    });
  } catch (error) {
    // Another create of the same external id won the race since the look-up above.
    if (error instanceof UniqueViolation && error.what === 'issue.external' && issue.external)
      throw externalTaken(issue.external, null);
    throw error;
  }
}

/** Refuses an external id that an issue of the workspace carries already (one issue a source and id). */
async function externalFree(ctx: OperationContext, external: ExternalRef): Promise<void> {
  const holder = await ctx.tx.collections.issues.findOne(ctx.tenant.workspaceId, {
    'external.source': external.source,
    'external.id': external.id,
  });
  if (holder) throw externalTaken(external, holder);
}

const externalTaken = (external: ExternalRef, holder: Issue | null) => {
  const as = holder ? `, as ${holder.key} (${holder.id})` : '';
  return new ApiError(
    400,
    'validation_failed',
    `${external.source} ${external.id} was imported already${as}: a workspace holds one issue a source and id.`,
    { issues: [{ in: 'body', path: 'external.id', message: `already the external id of an issue${as}` }] },
  );
};

/** Finds an issue by id (`iss_…`) or by its readable key (`APO-12`). */
export async function findIssue(ctx: OperationContext, idOrKey: string, forWrite: boolean): Promise<Issue> {
  const key = issueKeyPattern.exec(idOrKey);
  if (!key)
    return forWrite
      ? getForWrite(ctx, 'issues', idOrKey, 'issue')
      : getOr404(ctx, 'issues', idOrKey, 'issue');
  const project = await ctx.tx.collections.projects.findOne(ctx.tenant.workspaceId, { key: key[1] });
  const issue = project
    ? await ctx.tx.collections.issues.findOne(ctx.tenant.workspaceId, {
        projectId: project.id,
        number: Number(key[2]),
      })
    : null;
  if (!issue) throw notFound('issue');
  return forWrite ? getForWrite(ctx, 'issues', issue.id, 'issue') : issue;
}

export async function getIssue(ctx: OperationContext, idOrKey: string): Promise<IssueView> {
  return presentIssue(await findIssue(ctx, idOrKey, false));
}

/**
 * The issue as `getIssue` shows it, already serialized: by id it is sent as stored, without
 * being parsed and serialized again (the most frequent read of the API); by key it is found as
 * `getIssue` finds it.
 */
export async function getIssueJson(ctx: OperationContext, idOrKey: string): Promise<StoredJson> {
  if (issueKeyPattern.test(idOrKey)) {
    const issue = presentIssue(await findIssue(ctx, idOrKey, false));
    return { json: JSON.stringify(issue), version: issue.version };
  }
  return getStoredOr404(ctx, 'issues', idOrKey, 'issue');
}

export async function listIssues(ctx: OperationContext, params: IssueListQuery): Promise<Page<IssueView>> {
  const query = await withQuery(ctx, 'issues', params);
  const {
    archived,
    labels,
    labelsAny,
    labelsNone,
    dueAfter,
    dueBefore,
    estimateMin,
    estimateMax,
    blocked,
    externalId,
    externalSource,
    ...rest
  } = query;
  const { where, notNull } = archivedFilter(archived);
  const labelMatch = labelMatchOf(labels, labelsAny, labelsNone);
  const dueOn = dueRange({ dueAfter, dueBefore });
  const estimate = estimateRange({ estimateMin, estimateMax });
  const range = {
    ...(dueOn ? { dueOn } : {}),
    ...(estimate ? { estimate } : {}),
    ...(blocked ? { blockedBy: blocked === 'true' ? { gte: 1 } : { lte: 0 } } : {}),
  };
  const lists = splitFilters(rest, [
    'projectId',
    'outcomeId',
    'status',
    'severity',
    'assigneeId',
    'parentId',
  ]);
  return listPage(
    ctx,
    'issues',
    {
      ...lists.params,
      notNull,
      ...(Object.keys(range).length > 0 ? { range } : {}),
      ...(labelMatch ? { labels: labelMatch } : {}),
    },
    {
      ...lists.where,
      ...where,
      ...(externalId !== undefined ? { 'external.id': externalId } : {}),
      ...(externalSource !== undefined ? { 'external.source': externalSource } : {}),
    },
    presentIssue,
  );
}

/** Applies a partial update; a PATCH that changes nothing keeps the version and emits nothing. */
export async function updateIssue(
  ctx: OperationContext,
  idOrKey: string,
  patch: IssuePatch,
): Promise<IssueView> {
  const current = await findIssue(ctx, idOrKey, true);
  if (patch.assigneeId) await referencedMember(ctx, patch.assigneeId, 'assigneeId');
  if (patch.outcomeId) await outcomeOfProject(ctx, patch.outcomeId, current.projectId);
  const changes = (patch.labels ? { ...patch, labels: distinct(patch.labels) } : patch) as Partial<Issue>;
  const { row } = await applyChanges(ctx, 'issues', current, changes, {
    type: issueEvents.updated,
    resourceType: 'issue',
    present: presentIssue,
  });
  return presentIssue(row);
}

/** Labels as a set, in the order first named: `["a", "a"]` is the label `a` once, as GitHub keeps it. */
const distinct = (labels: readonly string[]): string[] => [...new Set(labels)];

export const invalidTransition = (from: IssueStatus, to: IssueStatus): ApiError =>
  new ApiError(422, 'invalid_transition', `An issue cannot go from ${from} to ${to}.`, {
    from,
    to,
    allowed: [...issueTransitions[from]],
  });

/**
 * Moves an issue through the state machine; entering `resolved` stamps resolvedAt, leaving it
 * clears it. A `comment` sent with it (not blank) becomes a comment on the issue, counted in the
 * same new version, and the `issue.status_changed` event names it (`commentId`).
 */
export async function transitionIssue(
  ctx: OperationContext,
  idOrKey: string,
  input: IssueTransition,
): Promise<IssueView> {
  const current = await findIssue(ctx, idOrKey, true);
  if (!canTransition(current.status, input.to)) throw invalidTransition(current.status, input.to);
  const commented = input.comment !== undefined && input.comment.trim().length > 0;
  const next = await saveNextVersion(ctx, 'issues', current, {
    status: input.to,
    resolvedAt: input.to === 'resolved' ? ctx.now : null,
    ...(commented ? { commentCount: current.commentCount + 1 } : {}),
  });
  const comment =
    commented && input.comment !== undefined
      ? await insertComment(ctx, { issueId: next.id, outcomeId: null, decisionId: null, body: input.comment })
      : null;
  await ctx.emit({
    type: issueEvents.statusChanged,
    resource: resourceOf(next),
    data: {
      object: presentIssue(next),
      previous: { status: current.status },
      ...(input.comment !== undefined ? { comment: input.comment } : {}),
      ...(comment ? { commentId: comment.id } : {}),
    },
  });
  return presentIssue(next);
}

/** Archives the issue (`archivedAt`): lists leave it out unless asked for it. */
export async function archiveIssue(ctx: OperationContext, idOrKey: string): Promise<IssueView> {
  const current = await findIssue(ctx, idOrKey, true);
  return setArchived(ctx, 'issues', current, true, { noun: 'issue', present: presentIssue });
}

/** Brings an archived issue back into lists. */
export async function unarchiveIssue(ctx: OperationContext, idOrKey: string): Promise<IssueView> {
  const current = await findIssue(ctx, idOrKey, true);
  return setArchived(ctx, 'issues', current, false, { noun: 'issue', present: presentIssue });
}
