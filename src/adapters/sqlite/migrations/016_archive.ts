/**
 * Migration 16: issues and outcomes can be archived (`archived_at`). Lists leave archived rows out
 * unless asked for them, so nearly every list asks `archived_at IS NULL`: rather than add that
 * column to every list index, the adapter counts the rows of the other filters as before (a
 * maintained count or an index) less the archived ones among them, which it finds through
 * `<table>_archived`, an index of the archived rows only (few: archiving is the exception), in
 * creation order, which `archived=only` pages through as well.
 *
 * Existing rows get `"archivedAt":null` at the end of their JSON text, which keeps the order of
 * their other members.
 * Frozen once released: the tables are listed here, not derived from the code.
 */

export const archive = ['issues', 'outcomes']
  .map(
    (table) => `ALTER TABLE ${table} ADD COLUMN archived_at TEXT;
CREATE INDEX ${table}_archived ON ${table} (workspace_id, created_at, id) WHERE archived_at IS NOT NULL;
UPDATE ${table} SET data = substr(data, 1, length(data) - 1) || ',"archivedAt":null}';`,
  )
  .join('\n');
