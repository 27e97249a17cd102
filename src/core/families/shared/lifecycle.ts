import type { OperationContext } from '../../pipeline/context.js';
import type { CollectionName, CollectionRows } from '../../port/index.js';
import { present } from './operations.js';

export interface Announcement<Row, View> {
  /** The event type, e.g. `issue.created`. */
  type: string;
  /** The signal's resource type, e.g. `issue`. */
  resourceType: string;
  present: (row: Row) => View;
}

/**
 * Inserts a new row and writes its `*.created` signal in the same transaction; returns its view
 * (`present`: the row without its workspace), the very object the signal carries. A create
 * answers with it unchanged: its idempotency key replays the signal's copy (handle.ts,
 * bodySignalOf), so a change made to it afterwards would show in the first answer and not in a
 * replay.
 *
 * The row is serialized once: the view's text is the row's without its workspace, and the
 * storage, the signal and the answer take those texts as they are (Collection.insert's `json`,
 * SignalInput.objectJson).
 */
export async function insertAndAnnounce<Name extends CollectionName>(
  ctx: OperationContext,
  name: Name,
  row: CollectionRows[Name],
  event: Omit<Announcement<CollectionRows[Name], unknown>, 'present'>,
): Promise<Omit<CollectionRows[Name], 'workspaceId'>> {
  const rowJson = JSON.stringify(row);
  await ctx.tx.collections[name].insert(row as never, rowJson);
  const view = present(row);
  const objectJson = textWithoutWorkspace(rowJson, row);
  await ctx.emit({
    type: event.type,
    resource: { type: event.resourceType, id: row.id },
    data: { object: view },
    ...(objectJson === null ? {} : { objectJson }),
  });
  return view;
}

/**
 * What JSON.stringify makes of the row without its `workspaceId`, cut out of the row's text when
 * the row begins with its id and workspace (as every row the families make does): the other
 * members then follow in the same order, as `present` keeps them. Null for a row that does not.
 */
function textWithoutWorkspace(rowJson: string, row: { id: string; workspaceId: string }): string | null {
  const id = `{"id":${JSON.stringify(row.id)}`;
  const head = `${id},"workspaceId":${JSON.stringify(row.workspaceId)}`;
  return rowJson.startsWith(head) ? id + rowJson.slice(head.length) : null;
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
