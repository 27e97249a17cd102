/**
 * Migration 22: watchers and notifications. A watch is a row of `watchers` (the subject's watchers
 * in the order they began, and a user's watches by the second index); a notifying signal is filed
 * once under its issue or outcome in `watched_events`, however many watch it; a user's feed is
 * their watches joined with those and the signal log, and `notification_reads` keeps how far each
 * user read. Nothing is written per watcher when something happens.
 * Frozen once released.
 */
export const watchers = `
CREATE TABLE watchers (
  account_id TEXT NOT NULL,
  workspace_id TEXT NOT NULL,
  subject_id TEXT NOT NULL,
  user_id TEXT NOT NULL,
  subject_type TEXT NOT NULL,
  reason TEXT NOT NULL,
  since TEXT NOT NULL,
  PRIMARY KEY (account_id, workspace_id, subject_id, user_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX watchers_by_user ON watchers (account_id, workspace_id, user_id, subject_id);
CREATE INDEX watchers_in_order ON watchers (account_id, workspace_id, subject_id, since, user_id);
CREATE TABLE watched_events (
  account_id TEXT NOT NULL,
  workspace_id TEXT NOT NULL,
  subject_id TEXT NOT NULL,
  sequence INTEGER NOT NULL,
  actor_user_id TEXT,
  occurred_at TEXT NOT NULL,
  PRIMARY KEY (account_id, workspace_id, subject_id, sequence)
) STRICT, WITHOUT ROWID;
CREATE INDEX watched_events_occurred ON watched_events (occurred_at);
CREATE TABLE notification_reads (
  account_id TEXT NOT NULL,
  workspace_id TEXT NOT NULL,
  user_id TEXT NOT NULL,
  read_up_to INTEGER NOT NULL,
  PRIMARY KEY (account_id, workspace_id, user_id)
) STRICT, WITHOUT ROWID;
`;
