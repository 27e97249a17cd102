import { invalidReference } from '../../errors.js';
import type { Decision, DecisionStatus } from '../../model.js';
import type { OperationContext } from '../../pipeline/context.js';
import type { Page } from '../../pipeline/pagination.js';
import { splitFilters } from '../shared/filters.js';
import { insertAndAnnounce } from '../shared/lifecycle.js';
import { firstVersion, getForWrite, getOr404, listPage, present } from '../shared/operations.js';
import { withQuery } from '../shared/query.js';
import { outcomeOfProject, referenced } from '../shared/references.js';
import { applyChanges } from '../shared/update.js';
import { decisionEvents } from './events.js';
import type { DecisionCreate, DecisionListQuery, DecisionPatch } from './schema.js';

export type DecisionView = ReturnType<typeof present<Decision>>;
export const presentDecision = (decision: Decision): DecisionView => present(decision);

/**
 * A superseding decision must be another decision of the same project, and not one that this
 * decision already supersedes: the chain of successors never loops back, so "the decision in
 * force" is always found by following it.
 */
async function checkSupersededBy(
  ctx: OperationContext,
  supersededBy: string,
  projectId: string,
  selfId: string,
) {
  if (supersededBy === selfId) throw invalidReference('supersededBy', 'A decision cannot supersede itself.');
  const other = await referenced(ctx, 'decisions', supersededBy, 'supersededBy');
  if (other.projectId !== projectId) {
    throw invalidReference('supersededBy', `Decision ${supersededBy} belongs to another project.`);
  }
  // Every stored chain ends (this check keeps it so), so the walk stops.
  for (let next = other.supersededBy; next !== null; ) {
    if (next === selfId) {
      throw invalidReference(
        'supersededBy',
        `Decision ${supersededBy} is itself superseded, through its successors, by this decision.`,
      );
    }
    next = (await ctx.tx.collections.decisions.get(ctx.tenant.workspaceId, next))?.supersededBy ?? null;
  }
}

/**
 * A decision is decided when it is accepted or rejected: without a decidedAt of the client's,
 * the time of the change that decided it is recorded.
 */
const decidedAtFor = (
  status: DecisionStatus,
  given: string | null | undefined,
  current: string | null,
  now: string,
) =>
  given !== undefined ? given : (current ?? (status === 'accepted' || status === 'rejected' ? now : null));

export async function createDecision(ctx: OperationContext, input: DecisionCreate): Promise<DecisionView> {
  await referenced(ctx, 'projects', input.projectId, 'projectId');
  if (input.outcomeId) await outcomeOfProject(ctx, input.outcomeId, input.projectId);
  const id = ctx.ids.id('dec');
  if (input.supersededBy) await checkSupersededBy(ctx, input.supersededBy, input.projectId, id);
  // Naming a successor makes a decision superseded unless the client says otherwise.
  const status = input.status ?? (input.supersededBy ? 'superseded' : 'proposed');
  const decision: Decision = {
    id,
    workspaceId: ctx.tenant.workspaceId,
    projectId: input.projectId,
    title: input.title,
    rationale: input.rationale,
    participants: input.participants ?? [],
    outcomeId: input.outcomeId ?? null,
    status,
    decidedAt: decidedAtFor(status, input.decidedAt, null, ctx.now),
    supersededBy: input.supersededBy ?? null,
    commentCount: 0,
    ...firstVersion(ctx),
  };
  return insertAndAnnounce(ctx, 'decisions', decision, {
    type: decisionEvents.created,
    resourceType: 'decision',
  });
}

export async function getDecision(ctx: OperationContext, id: string): Promise<DecisionView> {
  return presentDecision(await getOr404(ctx, 'decisions', id, 'decision'));
}

export async function listDecisions(
  ctx: OperationContext,
  query: DecisionListQuery,
): Promise<Page<DecisionView>> {
  const { where, params } = splitFilters(await withQuery(ctx, 'decisions', query), [
    'projectId',
    'outcomeId',
    'status',
  ]);
  return listPage(ctx, 'decisions', params, where, presentDecision);
}

export async function updateDecision(
  ctx: OperationContext,
  id: string,
  patch: DecisionPatch,
): Promise<DecisionView> {
  const current = await getForWrite(ctx, 'decisions', id, 'decision');
  if (patch.outcomeId) await outcomeOfProject(ctx, patch.outcomeId, current.projectId);
  if (patch.supersededBy) await checkSupersededBy(ctx, patch.supersededBy, current.projectId, current.id);
  const status =
    patch.status ?? (patch.supersededBy && !current.supersededBy ? 'superseded' : current.status);
  const { row } = await applyChanges(
    ctx,
    'decisions',
    current,
    {
      ...(patch as Partial<Decision>),
      status,
      decidedAt: decidedAtFor(status, patch.decidedAt, current.decidedAt, ctx.now),
    },
    { type: decisionEvents.updated, resourceType: 'decision', present: presentDecision },
  );
  return presentDecision(row);
}
