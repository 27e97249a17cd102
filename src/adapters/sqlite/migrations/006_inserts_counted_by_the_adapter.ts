/**
 * Migration 6: an inserted row is counted (list_counts) and noted for the search index
 * (search_pending) by the adapter's insert, in the same transaction, instead of by AFTER INSERT
 * triggers. An INSERT that fires a trigger runs in a statement journal of its own: SQLite copies
 * every page it changes (the row's table, each of its indexes, the trigger's targets) before
 * changing it, so that it can undo the statement alone. A plain one-row INSERT checks every
 * constraint before it writes anything and needs no such copy; the adapter's own statements then
 * change only the counts' page and the note's. A create costs 7–8% less CPU in process (paired
 * runs). Updates and deletes keep their triggers (migrations 2 and 5).
 * Frozen once released: the tables are listed here, not derived from the code.
 */

const countedTables = ['projects', 'issues', 'outcomes', 'context_items', 'decisions', 'time_entries'];
const searchedTables = ['projects', 'issues', 'outcomes'];

export const insertsCountedByTheAdapter = [
  ...countedTables.map((table) => `DROP TRIGGER ${table}_count_insert;`),
  ...searchedTables.map((table) => `DROP TRIGGER ${table}_search_insert;`),
].join('\n');
