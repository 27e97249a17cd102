/**
 * Migration 28: the text columns of the watching tables (migration 21) compare in the "C"
 * collation, as migration 1 has every compared or ordered text column do. They were created with
 * the database's default, so on a database whose default is not byte order (an ICU or `en_US`
 * locale) a subject's watchers with the same start came in another order than on SQLite and the
 * memory adapter (`ORDER BY since, user_id`, and the cursor that resumes it). Every column the
 * three tables compare or join on moves together: a join of two collations would not resolve.
 * Frozen once released.
 */
export const watchTextOrder = `
ALTER TABLE watchers
  ALTER COLUMN workspace_id TYPE text COLLATE "C",
  ALTER COLUMN subject_id TYPE text COLLATE "C",
  ALTER COLUMN user_id TYPE text COLLATE "C",
  ALTER COLUMN since TYPE text COLLATE "C";
ALTER TABLE watched_events
  ALTER COLUMN workspace_id TYPE text COLLATE "C",
  ALTER COLUMN subject_id TYPE text COLLATE "C",
  ALTER COLUMN actor_user_id TYPE text COLLATE "C",
  ALTER COLUMN occurred_at TYPE text COLLATE "C";
ALTER TABLE notification_reads
  ALTER COLUMN workspace_id TYPE text COLLATE "C",
  ALTER COLUMN user_id TYPE text COLLATE "C";
`;
