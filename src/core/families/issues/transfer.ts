import type { ExternalRef } from '../../model.js';
import type { OperationContext } from '../../pipeline/context.js';
import type { CollectionRows } from '../../port/index.js';

/** Keeps the project's issue counter at or above the issue's number, so later creates follow it. */
export async function keepIssueCounter(
  ctx: OperationContext,
  issue: CollectionRows['issues'],
): Promise<void> {
  const name = `issues:${issue.projectId}`;
  const next = await ctx.tx.counters.next(issue.workspaceId, name);
  await ctx.tx.counters.set(issue.workspaceId, name, Math.max(next - 1, issue.number));
}

/** An issue whose number another issue of its project holds cannot go in as it is. */
async function issueNumberTaken(ctx: OperationContext, record: Record<string, unknown>) {
  const other = await ctx.tx.collections.issues.findOne(ctx.tenant.workspaceId, {
    projectId: String(record.projectId),
    number: Number(record.number),
  });
  return other && other.id !== record.id
    ? { field: 'number', message: `${String(record.key)} is another issue (${other.id}) of the workspace` }
    : null;
}

/** An issue whose external id (source and id) another issue of the workspace carries cannot go in. */
async function externalTaken(ctx: OperationContext, record: Record<string, unknown>) {
  const external = record.external as ExternalRef | null | undefined;
  if (!external) return null;
  const other = await ctx.tx.collections.issues.findOne(ctx.tenant.workspaceId, {
    'external.source': external.source,
    'external.id': external.id,
  });
  return other && other.id !== record.id
    ? {
        field: 'record.external.id',
        message: `${external.source} ${external.id} is the external id of another issue (${other.key}, ${other.id}) of the workspace`,
      }
    : null;
}

/** Why an issue of an export cannot go in although it is new: its number or its external id taken. */
export async function issueConflict(ctx: OperationContext, record: Record<string, unknown>) {
  return (await issueNumberTaken(ctx, record)) ?? (await externalTaken(ctx, record));
}
