/**
 * Watchers and notifications. A watch is a row of `watchers` (the subject's watchers in the order
 * they began, and a user's watches by the second index); a notifying signal is filed once under
 * its issue or outcome in `watched_events`, however many watch it; a user's feed is their watches
 * joined with those and the signal log, and `notification_reads` keeps how far each user read.
 * Nothing is written per watcher when something happens. Tenant tables: the account leads every
 * key (distribution.ts).
 * Frozen once released.
 */
export const watchers = `
CREATE TABLE watchers (
  account_id text COLLATE "C" NOT NULL,
  workspace_id text NOT NULL,
  subject_id text NOT NULL,
  user_id text NOT NULL,
  subject_type text NOT NULL,
  reason text NOT NULL,
  since text NOT NULL,
  PRIMARY KEY (account_id, workspace_id, subject_id, user_id)
);
CREATE INDEX watchers_by_user ON watchers (account_id, workspace_id, user_id, subject_id);
CREATE INDEX watchers_in_order ON watchers (account_id, workspace_id, subject_id, since, user_id);
CREATE TABLE watched_events (
  account_id text COLLATE "C" NOT NULL,
  workspace_id text NOT NULL,
  subject_id text NOT NULL,
  sequence bigint NOT NULL,
  actor_user_id text,
  occurred_at text NOT NULL,
  PRIMARY KEY (account_id, workspace_id, subject_id, sequence)
);
CREATE INDEX watched_events_occurred ON watched_events (occurred_at);
CREATE TABLE notification_reads (
  account_id text COLLATE "C" NOT NULL,
  workspace_id text NOT NULL,
  user_id text NOT NULL,
  read_up_to bigint NOT NULL,
  PRIMARY KEY (account_id, workspace_id, user_id)
);
`;
