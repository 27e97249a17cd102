import { ApiError } from '../../errors.js';
import type { Outcome, OutcomeStatus } from '../../model.js';
import type { OperationContext } from '../../pipeline/context.js';
import type { Page } from '../../pipeline/pagination.js';
import { deleteCommentsOn } from '../comments/operations.js';
import { contextEvents } from '../context/events.js';
import { presentContext } from '../context/operations.js';
import { setArchived } from '../shared/archive.js';
import { dueRange } from '../shared/due-filters.js';
import { splitFilters } from '../shared/filters.js';
import { deleteAndAnnounce, insertAndAnnounce } from '../shared/lifecycle.js';
import { firstVersion, getForWrite, getOr404, listPage, present } from '../shared/operations.js';
import { withQuery } from '../shared/query.js';
import { referenced, referencedMember } from '../shared/references.js';
import { archivedFilter } from '../shared/schema.js';
import { applyChanges } from '../shared/update.js';
import { outcomeEvents } from './events.js';
import type { OutcomeCreate, OutcomeListQuery, OutcomePatch } from './schema.js';

export type OutcomeView = ReturnType<typeof present<Outcome>>;
export const presentOutcome = (outcome: Outcome): OutcomeView => present(outcome);

const resourceOf = (outcome: Outcome) => ({ type: 'outcome', id: outcome.id });

/** shippedAt follows the status: stamped on becoming shipped, cleared on leaving it. */
const shippedAtFor = (status: OutcomeStatus, current: Outcome | null, now: string): string | null =>
  status !== 'shipped' ? null : current?.status === 'shipped' ? current.shippedAt : now;

async function emitShipped(ctx: OperationContext, outcome: Outcome): Promise<void> {
  await ctx.emit({
    type: outcomeEvents.shipped,
    resource: resourceOf(outcome),
    data: { object: presentOutcome(outcome) },
  });
}

export async function createOutcome(ctx: OperationContext, input: OutcomeCreate): Promise<OutcomeView> {
  await referenced(ctx, 'projects', input.projectId, 'projectId');
  if (input.ownerId) await referencedMember(ctx, input.ownerId, 'ownerId');
  const status = input.status ?? 'planned';
  const outcome: Outcome = {
    id: ctx.ids.id('out'),
    workspaceId: ctx.tenant.workspaceId,
    projectId: input.projectId,
    title: input.title,
    description: input.description ?? null,
    status,
    ownerId: input.ownerId ?? null,
    dueDate: input.dueDate ?? null,
    shippedAt: shippedAtFor(status, null, ctx.now),
    commentCount: 0,
    archivedAt: null,
    ...firstVersion(ctx),
  };
  const view = await insertAndAnnounce(ctx, 'outcomes', outcome, {
    type: outcomeEvents.created,
    resourceType: 'outcome',
  });
  if (status === 'shipped') await emitShipped(ctx, outcome);
  return view;
}

export async function getOutcome(ctx: OperationContext, id: string): Promise<OutcomeView> {
  return presentOutcome(await getOr404(ctx, 'outcomes', id, 'outcome'));
}

export async function listOutcomes(
  ctx: OperationContext,
  params: OutcomeListQuery,
): Promise<Page<OutcomeView>> {
  const { archived, dueAfter, dueBefore, ...rest } = await withQuery(ctx, 'outcomes', params);
  const { where, notNull } = archivedFilter(archived);
  const lists = splitFilters(rest, ['projectId', 'status', 'ownerId']);
  const dueDate = dueRange({ dueAfter, dueBefore });
  return listPage(
    ctx,
    'outcomes',
    { ...lists.params, notNull, ...(dueDate ? { range: { dueDate } } : {}) },
    { ...lists.where, ...where },
    presentOutcome,
  );
}

export async function updateOutcome(
  ctx: OperationContext,
  id: string,
  patch: OutcomePatch,
): Promise<OutcomeView> {
  const current = await getForWrite(ctx, 'outcomes', id, 'outcome');
  if (patch.ownerId) await referencedMember(ctx, patch.ownerId, 'ownerId');
  const status = patch.status ?? current.status;
  const { row } = await applyChanges(
    ctx,
    'outcomes',
    current,
    { ...(patch as Partial<Outcome>), shippedAt: shippedAtFor(status, current, ctx.now) },
    { type: outcomeEvents.updated, resourceType: 'outcome', present: presentOutcome },
  );
  if (row.status === 'shipped' && current.status !== 'shipped') await emitShipped(ctx, row);
  return presentOutcome(row);
}

/** "1 issue", "2 issues", "2 time entries". */
const plural = (noun: string, n: number): string =>
  n === 1 ? noun : noun.endsWith('y') ? `${noun.slice(0, -1)}ies` : `${noun}s`;

/**
 * Deletes an outcome with its context items and comments. Refused with 409 resource_in_use while issues,
 * decisions or time entries still refer to it: nothing a user did not ask to delete goes with it.
 */
export async function deleteOutcome(ctx: OperationContext, id: string): Promise<void> {
  const outcome = await getForWrite(ctx, 'outcomes', id, 'outcome');
  const workspaceId = ctx.tenant.workspaceId;
  const where = { outcomeId: outcome.id };
  const references = {
    issues: await ctx.tx.collections.issues.count(workspaceId, where),
    decisions: await ctx.tx.collections.decisions.count(workspaceId, where),
    timeEntries: await ctx.tx.collections.timeEntries.count(workspaceId, where),
  };
  if (references.issues + references.decisions + references.timeEntries > 0) {
    const nouns = { issues: 'issue', decisions: 'decision', timeEntries: 'time entry' } as const;
    const named = (Object.keys(nouns) as (keyof typeof nouns)[])
      .filter((what) => references[what] > 0)
      .map((what) => `${references[what]} ${plural(nouns[what], references[what])}`)
      .join(', ');
    throw new ApiError(409, 'resource_in_use', `Outcome ${outcome.id} is still referred to by ${named}.`, {
      references,
    });
  }
  await deleteCommentsOn(ctx, outcome.id);
  for (const item of await ctx.tx.collections.context.deleteWhere(workspaceId, where)) {
    await ctx.emit({
      type: contextEvents.deleted,
      resource: { type: 'context', id: item.id },
      data: { object: presentContext(item) },
    });
  }
  await deleteAndAnnounce(ctx, 'outcomes', outcome, {
    type: outcomeEvents.deleted,
    resourceType: 'outcome',
    present: presentOutcome,
  });
}

/** Archives the outcome (`archivedAt`): lists leave it out unless asked for it. */
export async function archiveOutcome(ctx: OperationContext, id: string): Promise<OutcomeView> {
  const current = await getForWrite(ctx, 'outcomes', id, 'outcome');
  return setArchived(ctx, 'outcomes', current, true, { noun: 'outcome', present: presentOutcome });
}

/** Brings an archived outcome back into lists. */
export async function unarchiveOutcome(ctx: OperationContext, id: string): Promise<OutcomeView> {
  const current = await getForWrite(ctx, 'outcomes', id, 'outcome');
  return setArchived(ctx, 'outcomes', current, false, { noun: 'outcome', present: presentOutcome });
}
