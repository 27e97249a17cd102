import type { Collection, CollectionName } from '../../core/port/index.js';
import { collectionContext } from './collection-context.js';
import { countRows, listRows, tallyRows } from './collection-lists.js';
import { findOne, getJson, getRow } from './collection-reads.js';
import { deleteRow, deleteWhere, insertRow, updateRow } from './collection-writes.js';
import type { Conn } from './connection.js';

export { withoutWorkspace } from './collection-context.js';

/**
 * One collection over its table: the record as JSON, its filter, range and sum fields as columns.
 * A thin store: its statements are built and sent by collection-reads.ts, collection-writes.ts
 * and collection-lists.ts, which take the locks of collection-locks.ts.
 */
export function postgresCollection<Name extends CollectionName>(name: Name, conn: Conn): Collection<Name> {
  const ctx = collectionContext(name, conn);
  const collection: Collection<CollectionName> = {
    insert: (row, json) => insertRow(ctx, row, json),
    get: (workspaceId, id) => getRow(ctx, workspaceId, id),
    getJson: (workspaceId, id) => getJson(ctx, workspaceId, id),
    findOne: (workspaceId, where) => findOne(ctx, workspaceId, where as never),
    update: (row, expectedVersion) => updateRow(ctx, row, expectedVersion),
    delete: (workspaceId, id) => deleteRow(ctx, workspaceId, id),
    deleteWhere: (workspaceId, where) => deleteWhere(ctx, workspaceId, where as never),
    count: (workspaceId, where) => countRows(ctx, workspaceId, where as never),
    tally: (workspaceId, where, by) => tallyRows(ctx, workspaceId, where as never, by),
    list: (query) => listRows(ctx, query),
  };
  return collection as unknown as Collection<Name>;
}
