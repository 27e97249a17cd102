import { invalidReference } from '../../errors.js';
import type { OperationContext } from '../../pipeline/context.js';
import type { CollectionName, CollectionRows } from '../../port/index.js';

/**
 * The row a body field refers to, from the caller's workspace, or 422 invalid_reference: an id
 * of another workspace is as unknown here as one that never existed.
 */
export async function referenced<Name extends CollectionName>(
  ctx: OperationContext,
  name: Name,
  id: string,
  field: string,
): Promise<CollectionRows[Name]> {
  const row = await ctx.tx.collections[name].get(ctx.tenant.workspaceId, id);
  if (!row)
    throw invalidReference(
      field,
      `${field} ${id} does not name ${label[name] ?? `one of the ${name}`} in this workspace.`,
    );
  return row as CollectionRows[Name];
}

/**
 * How a refusal names the collection's record. Partial: a family added later needs no line here
 * until something refers to its records, and is named by its collection meanwhile.
 */
const label: Partial<Record<CollectionName, string>> = {
  projects: 'a project',
  issues: 'an issue',
  outcomes: 'an outcome',
  context: 'a context item',
  decisions: 'a decision',
  timeEntries: 'a time entry',
  comments: 'a comment',
  issueRelations: 'an issue relation',
  views: 'a saved view',
};

/** A user reference must name a member of the caller's workspace. */
export async function referencedMember(ctx: OperationContext, userId: string, field: string): Promise<void> {
  const membership = await ctx.tx.tenancy.getMembership(ctx.tenant.workspaceId, userId);
  if (!membership) throw invalidReference(field, `${field} ${userId} is not a member of this workspace.`);
}

/** An outcome referenced from a project's resource must belong to that same project. */
export async function outcomeOfProject(
  ctx: OperationContext,
  outcomeId: string,
  projectId: string,
  field = 'outcomeId',
): Promise<void> {
  const outcome = await referenced(ctx, 'outcomes', outcomeId, field);
  if (outcome.projectId !== projectId) {
    throw invalidReference(field, `Outcome ${outcomeId} belongs to another project than ${projectId}.`);
  }
}
