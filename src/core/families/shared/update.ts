import type { OperationContext, SignalInput } from '../../pipeline/context.js';
import type { CollectionName, CollectionRows } from '../../port/index.js';
import { changedFields, saveNextVersion } from './operations.js';

export interface Applied<Row> {
  /** The row after the change (the current one when nothing changed). */
  row: Row;
  /** The old values of the fields that changed; empty when nothing did. */
  previous: Partial<Row>;
}

/**
 * Applies a partial change to a row read with getForWrite: writes the next version and emits
 * `<type>` with the old values of the changed fields. A change that changes nothing writes
 * nothing and emits nothing.
 */
export async function applyChanges<Name extends CollectionName>(
  ctx: OperationContext,
  name: Name,
  current: CollectionRows[Name],
  changes: Partial<CollectionRows[Name]>,
  event: { type: string; resourceType: string; present: (row: CollectionRows[Name]) => unknown },
): Promise<Applied<CollectionRows[Name]>> {
  const changed = changedFields(current, changes);
  const fields = Object.keys(changed) as (keyof CollectionRows[Name])[];
  if (fields.length === 0) return { row: current, previous: {} };
  const row = await saveNextVersion(ctx, name, current, changed);
  const previous: Partial<CollectionRows[Name]> = {};
  for (const field of fields) previous[field] = current[field];
  const signal: SignalInput = {
    type: event.type,
    resource: { type: event.resourceType, id: row.id },
    data: { object: event.present(row), previous },
  };
  await ctx.emit(signal);
  return { row, previous };
}
