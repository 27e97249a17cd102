/**
 * Migration 5: the trigram search tables are written once per COMMIT instead of once per row.
 *
 * Before, a trigger wrote each inserted or changed row into its FTS5 table at once. FTS5 writes
 * what it holds to a new segment at every SAVEPOINT that follows, and every request of a group
 * commit runs in a savepoint of its own: a segment (and merge work) per request. Now the triggers
 * only note the row's key in `search_pending`, and the adapter writes the noted rows to the
 * search tables in one go before each COMMIT, and before a search inside a transaction that
 * noted some (search-index.ts). A committed transaction therefore never leaves a row pending.
 * Frozen once released: the tables and fields are listed here, not derived from the code.
 */

/** The searchable tables and their fields, as migration 1 made them. */
export const searchedFields: Record<string, readonly string[]> = {
  projects: ['name', 'description'],
  issues: ['title', 'description'],
  outcomes: ['title', 'description'],
};

function noteChanges(table: string, fields: readonly string[]): string {
  const changed = fields
    .map((field) => `json_extract(old.data, '$.${field}') IS NOT json_extract(new.data, '$.${field}')`)
    .join(' OR ');
  const note = (row: 'new' | 'old') =>
    `INSERT OR IGNORE INTO search_pending (tbl, pk) VALUES ('${table}', ${row}.pk);`;
  return `
DROP TRIGGER ${table}_search_insert;
DROP TRIGGER ${table}_search_delete;
DROP TRIGGER ${table}_search_update;
CREATE TRIGGER ${table}_search_insert AFTER INSERT ON ${table} BEGIN
  ${note('new')}
END;
CREATE TRIGGER ${table}_search_delete AFTER DELETE ON ${table} BEGIN
  ${note('old')}
END;
CREATE TRIGGER ${table}_search_update AFTER UPDATE OF data ON ${table} WHEN ${changed} BEGIN
  ${note('new')}
END;`;
}

export const batchedSearch = `
CREATE TABLE search_pending (
  tbl TEXT NOT NULL,
  pk INTEGER NOT NULL,
  PRIMARY KEY (tbl, pk)
) STRICT, WITHOUT ROWID;
${Object.entries(searchedFields)
  .map(([table, fields]) => noteChanges(table, fields))
  .join('\n')}
`;
