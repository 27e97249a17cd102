import type { DeferredBookkeeping } from '../engine/deferred-bookkeeping.js';
import type { Db } from '../engine/types.js';
import { searchedFields } from '../migrations/005_batched_search.js';

/**
 * Writes the rows noted in `search_pending` to the trigram search tables: a deleted row leaves
 * its table's index, a new or changed one is (re)written from its current data. Run before the
 * COMMIT of every few write transactions (index.ts), so that one FTS5 write serves many group
 * commits, and before any search, so that a search sees every committed row. Noted rows wait in
 * the database, so a process that stops leaves them for the next write or search of any process.
 * The notes of the transaction's own inserts may still wait in the bookkeeping: it is flushed first.
 */
export function searchIndexWriter(db: Db, bookkeeping: DeferredBookkeeping) {
  const anyPending = db.prepare('SELECT EXISTS (SELECT 1 FROM search_pending)').pluck(true);
  const perTable = Object.entries(searchedFields).map(([table, fields]) => {
    const pending = `SELECT pk FROM search_pending WHERE tbl = '${table}'`;
    const values = fields.map((field) => `json_extract(data, '$.${field}')`).join(', ');
    return [
      db.prepare(`DELETE FROM ${table}_search WHERE rowid IN (${pending})`),
      db.prepare(
        `INSERT INTO ${table}_search (rowid, ${fields.join(', ')}) SELECT pk, ${values} FROM ${table} WHERE pk IN (${pending})`,
      ),
    ];
  });
  const clear = db.prepare('DELETE FROM search_pending');

  /** `beforeWrite` is told when there are rows to write, before any is written. */
  return function writePendingSearch(beforeWrite: () => void = () => {}): void {
    bookkeeping.flush();
    if (!anyPending.get()) return;
    beforeWrite();
    for (const statements of perTable) for (const statement of statements) statement.run();
    clear.run();
  };
}
