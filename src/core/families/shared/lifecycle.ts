import type { OperationContext } from '../../pipeline/context.js';
import type { CollectionName, CollectionRows } from '../../storage.js';

export interface Announcement<Row, View> {
  /** The event type, e.g. `issue.created`. */
  type: string;
  /** The signal's resource type, e.g. `issue`. */
  resourceType: string;
  present: (row: Row) => View;
}

/**
 * Inserts a new row and writes its `*.created` signal in the same transaction; returns its view,
 * the very object the signal carries. A create answers with it unchanged: its idempotency key
 * replays the signal's copy (handle.ts, bodySignalOf), so a change made to it afterwards would
 * show in the first answer and not in a replay.
 */
export async function insertAndAnnounce<Name extends CollectionName, View>(
  ctx: OperationContext,
  name: Name,
  row: CollectionRows[Name],
  event: Announcement<CollectionRows[Name], View>,
): Promise<View> {
  await ctx.tx.collections[name].insert(row as never);
  const view = event.present(row);
  await ctx.emit({
    type: event.type,
    resource: { type: event.resourceType, id: row.id },
    data: { object: view },
  });
  return view;
}

/** Deletes a row read for writing and writes its `*.deleted` signal, carrying the row as it was. */
export async function deleteAndAnnounce<Name extends CollectionName, View>(
  ctx: OperationContext,
  name: Name,
  row: CollectionRows[Name],
  event: Announcement<CollectionRows[Name], View>,
): Promise<void> {
  await ctx.tx.collections[name].delete(ctx.tenant.workspaceId, row.id);
  await ctx.emit({
    type: event.type,
    resource: { type: event.resourceType, id: row.id },
    data: { object: event.present(row) },
  });
}
