import type { OperationContext } from '../../pipeline/context.js';

/** A project whose key another project of the workspace holds cannot go in as it is. */
export async function projectKeyTaken(ctx: OperationContext, record: Record<string, unknown>) {
  const other = await ctx.tx.collections.projects.findOne(ctx.tenant.workspaceId, {
    key: String(record.key),
  });
  return other && other.id !== record.id
    ? {
        field: 'key',
        message: `the key ${String(record.key)} is used by another project (${other.id}) of the workspace`,
      }
    : null;
}
