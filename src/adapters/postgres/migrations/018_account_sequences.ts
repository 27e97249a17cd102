/**
 * Migration 18: signals, webhooks and deliveries keyed by account (see distribution.ts).
 *
 * Signal sequences are per account: `accounts.last_sequence` is the account's latest sequence,
 * and an append takes the next one by updating that row (signals.ts), whose lock, held to the
 * commit, queues the account's appends in commit order. The global `signal_sequence` and its
 * advisory append lock go, and so does `signal_purges`: the latest sequence survives a purge
 * because it lives in the account's row. The backfill is each account's highest sequence, or the
 * highest sequence a purge (or a copy) ever recorded when that is higher: an account whose
 * events were all purged answered that before as its latest, and its next event must come after
 * whatever a reader of it has seen.
 *
 * Webhooks, deliveries and delivery attempts are keyed (account_id, id), and their indexes lead
 * with the account. `due_accounts` (a reference table) names each account with a delivery to
 * claim and the earliest time one becomes claimable: the dispatcher reads it first, then claims
 * inside each account (webhooks.ts). It is filled here from the deliveries.
 *
 * `storage_time_shares` is keyed by account_id already.
 * Frozen once released: every statement is written out here, not derived from the code.
 */
export const accountSequences = `
ALTER TABLE accounts ADD COLUMN last_sequence bigint NOT NULL DEFAULT 0;
UPDATE accounts a SET last_sequence = GREATEST(
  coalesce((SELECT max(s.sequence) FROM signals s WHERE s.account_id = a.id), 0),
  (SELECT purged_through FROM signal_purges));

ALTER TABLE signals DROP CONSTRAINT signals_pkey;
ALTER TABLE signals ADD CONSTRAINT signals_pkey PRIMARY KEY (account_id, sequence);
DROP INDEX signals_by_account;
DROP INDEX signals_by_id;
CREATE INDEX signals_by_id ON signals (account_id, id);
DROP SEQUENCE signal_sequence;
DROP TABLE signal_purges;

ALTER TABLE webhooks DROP CONSTRAINT webhooks_pkey;
ALTER TABLE webhooks ADD CONSTRAINT webhooks_pkey PRIMARY KEY (account_id, id);
ALTER TABLE webhooks DROP CONSTRAINT webhooks_pk_key;
ALTER TABLE webhooks ADD CONSTRAINT webhooks_pk_key UNIQUE (account_id, pk);

ALTER TABLE deliveries DROP CONSTRAINT deliveries_pkey;
ALTER TABLE deliveries ADD CONSTRAINT deliveries_pkey PRIMARY KEY (account_id, id);
ALTER TABLE deliveries DROP CONSTRAINT deliveries_pk_key;
ALTER TABLE deliveries ADD CONSTRAINT deliveries_pk_key UNIQUE (account_id, pk);
DROP INDEX deliveries_by_subscription;
CREATE INDEX deliveries_by_subscription ON deliveries (account_id, subscription_id, created_at DESC, id DESC);
DROP INDEX deliveries_claimable;
CREATE INDEX deliveries_claimable ON deliveries (account_id, next_attempt_at, pk)
  WHERE next_attempt_at IS NOT NULL;
DROP INDEX deliveries_due_by_subscription;
CREATE INDEX deliveries_due_by_subscription ON deliveries (account_id, subscription_id, next_attempt_at, pk)
  WHERE next_attempt_at IS NOT NULL;

ALTER TABLE delivery_attempts DROP CONSTRAINT delivery_attempts_pkey;
ALTER TABLE delivery_attempts ADD CONSTRAINT delivery_attempts_pkey PRIMARY KEY (account_id, id);
ALTER TABLE delivery_attempts DROP CONSTRAINT delivery_attempts_pk_key;
ALTER TABLE delivery_attempts ADD CONSTRAINT delivery_attempts_pk_key UNIQUE (account_id, pk);
DROP INDEX delivery_attempts_by_delivery;
CREATE INDEX delivery_attempts_by_delivery ON delivery_attempts (account_id, delivery_id, number);
DROP INDEX delivery_attempts_by_subscription;
CREATE INDEX delivery_attempts_by_subscription ON delivery_attempts (account_id, subscription_id, started_at);

CREATE TABLE due_accounts (
  account_id text COLLATE "C" PRIMARY KEY,
  next_attempt_at text COLLATE "C" NOT NULL
);
CREATE INDEX due_accounts_by_time ON due_accounts (next_attempt_at);
INSERT INTO due_accounts (account_id, next_attempt_at)
  SELECT account_id, min(next_attempt_at) FROM deliveries WHERE next_attempt_at IS NOT NULL GROUP BY account_id;
`;
