/**
 * Issues and outcomes can be archived (`archived_at`). Lists leave archived rows out unless asked
 * for them: the adapter counts the rows of the other filters (an index read, as before) less the
 * archived ones among them, found through `<table>_archived`, an index of the archived rows only
 * (few: archiving is the exception), which `archived=only` pages through as well.
 *
 * Existing rows get `"archivedAt":null` at the end of their JSON text (a text edit, not jsonb,
 * which would reorder the members).
 * Frozen once released: the tables are listed here, not derived from the code.
 */

export const archive = ['issues', 'outcomes']
  .map(
    (table) => `ALTER TABLE ${table} ADD COLUMN archived_at text COLLATE "C";
CREATE INDEX ${table}_archived ON ${table} (workspace_id, created_at DESC, id DESC) WHERE archived_at IS NOT NULL;
UPDATE ${table} SET data = left(data, -1) || ',"archivedAt":null}';`,
  )
  .join('\n');
