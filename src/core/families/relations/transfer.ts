import type { OperationContext } from '../../pipeline/context.js';
import type { CollectionRows } from '../../port/index.js';

/** A relation another relation of the workspace already is (same issues, same stored type) cannot go in. */
export async function relationTaken(ctx: OperationContext, record: Record<string, unknown>) {
  const other = await ctx.tx.collections.issueRelations.findOne(ctx.tenant.workspaceId, {
    sourceId: String(record.sourceId),
    targetId: String(record.targetId),
    type: record.type as CollectionRows['issueRelations']['type'],
  });
  return other && other.id !== record.id
    ? { field: 'id', message: `the same relation is already stored as ${other.id}` }
    : null;
}
