/**
 * Migration 9: the number of each account's events of each type, kept as they are appended and
 * purged, so that the `total` of a page of events is one lookup per type instead of a count of
 * the account's log (50–70 ms for a million events, on every page a client polls).
 *
 * The adapter keeps the counts in the transaction that appends, restores or purges events. Not
 * triggers: a trigger puts its statement in a statement journal of its own, a copy of every page
 * the statement changes (see migration 6), which for a purge of a million events is memory the
 * size of what it deletes. Events are never updated.
 * Frozen once released.
 */
export const signalCounts = `
CREATE TABLE signal_counts (
  account_id TEXT NOT NULL,
  type TEXT NOT NULL,
  n INTEGER NOT NULL,
  PRIMARY KEY (account_id, type)
) STRICT, WITHOUT ROWID;
INSERT INTO signal_counts (account_id, type, n)
SELECT account_id, type, COUNT(*) FROM signals GROUP BY account_id, type;
`;
