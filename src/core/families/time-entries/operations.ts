import { ApiError, invalidReference } from '../../errors.js';
import type { TimeEntry } from '../../model.js';
import type { OperationContext } from '../../pipeline/context.js';
import type { Page } from '../../pipeline/pagination.js';
import { splitFilters } from '../shared/filters.js';
import { deleteAndAnnounce, insertAndAnnounce } from '../shared/lifecycle.js';
import { firstVersion, getForWrite, getOr404, listPage, present } from '../shared/operations.js';
import { referenced } from '../shared/references.js';
import { applyChanges } from '../shared/update.js';
import { timeEntryEvents } from './events.js';
import type { TimeEntryCreate, TimeEntryListQuery, TimeEntryPatch } from './schema.js';

export type TimeEntryView = ReturnType<typeof present<TimeEntry>>;
export const presentTimeEntry = (entry: TimeEntry): TimeEntryView => present(entry);

/** The outcome must exist; an issue, when named, must be of the outcome's project. */
async function checkReferences(ctx: OperationContext, outcomeId: string, issueId: string | null | undefined) {
  const outcome = await referenced(ctx, 'outcomes', outcomeId, 'outcomeId');
  if (!issueId) return;
  const issue = await referenced(ctx, 'issues', issueId, 'issueId');
  if (issue.projectId !== outcome.projectId) {
    throw invalidReference(
      'issueId',
      `Issue ${issueId} belongs to another project than outcome ${outcomeId}.`,
    );
  }
}

/** Only the user who logged the time, or a workspace admin, may change or delete it. */
async function ownEntryOr403(ctx: OperationContext, entry: TimeEntry): Promise<void> {
  const userId = ctx.tenant.actor.userId;
  if (userId === null || userId === entry.userId) return;
  const membership = await ctx.tx.tenancy.getMembership(ctx.tenant.workspaceId, userId);
  if (membership?.role !== 'admin') {
    throw new ApiError(403, 'forbidden', 'Only the user who logged this time, or an admin, may change it.');
  }
}

export async function createTimeEntry(ctx: OperationContext, input: TimeEntryCreate): Promise<TimeEntryView> {
  const userId = ctx.tenant.actor.userId;
  if (userId === null)
    throw new ApiError(403, 'forbidden', 'Time is logged by a user: call with a user token.');
  await checkReferences(ctx, input.outcomeId, input.issueId);
  const entry: TimeEntry = {
    id: ctx.ids.id('te'),
    workspaceId: ctx.tenant.workspaceId,
    outcomeId: input.outcomeId,
    issueId: input.issueId ?? null,
    userId,
    minutes: input.minutes,
    date: input.date,
    note: input.note ?? null,
    ...firstVersion(ctx),
  };
  return insertAndAnnounce(ctx, 'timeEntries', entry, {
    type: timeEntryEvents.created,
    resourceType: 'time_entry',
  });
}

export async function getTimeEntry(ctx: OperationContext, id: string): Promise<TimeEntryView> {
  return presentTimeEntry(await getOr404(ctx, 'timeEntries', id, 'time entry'));
}

/** A page of entries plus `totalMinutes` over every matching entry, summed by the storage. */
export async function listTimeEntries(
  ctx: OperationContext,
  query: TimeEntryListQuery,
): Promise<Page<TimeEntryView> & { totalMinutes: number }> {
  const { from, to, ...others } = query;
  const { where, params } = splitFilters(others, ['outcomeId', 'issueId', 'userId']);
  const range =
    from || to ? { date: { ...(from ? { gte: from } : {}), ...(to ? { lte: to } : {}) } } : undefined;
  const page = await listPage(
    ctx,
    'timeEntries',
    { ...params, range, sum: 'minutes' },
    where,
    presentTimeEntry,
  );
  const { sum, ...rest } = page;
  return { ...rest, totalMinutes: sum ?? 0 };
}

export async function updateTimeEntry(
  ctx: OperationContext,
  id: string,
  patch: TimeEntryPatch,
): Promise<TimeEntryView> {
  const current = await getForWrite(ctx, 'timeEntries', id, 'time entry');
  await ownEntryOr403(ctx, current);
  const outcomeId = patch.outcomeId ?? current.outcomeId;
  const issueId = patch.issueId !== undefined ? patch.issueId : current.issueId;
  if (patch.outcomeId !== undefined || patch.issueId !== undefined)
    await checkReferences(ctx, outcomeId, issueId);
  const { row } = await applyChanges(ctx, 'timeEntries', current, patch as Partial<TimeEntry>, {
    type: timeEntryEvents.updated,
    resourceType: 'time_entry',
    present: presentTimeEntry,
  });
  return presentTimeEntry(row);
}

export async function deleteTimeEntry(ctx: OperationContext, id: string): Promise<void> {
  const entry = await getForWrite(ctx, 'timeEntries', id, 'time entry');
  await ownEntryOr403(ctx, entry);
  await deleteAndAnnounce(ctx, 'timeEntries', entry, {
    type: timeEntryEvents.deleted,
    resourceType: 'time_entry',
    present: presentTimeEntry,
  });
}
