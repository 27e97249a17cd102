/**
 * Deliveries get an explicit `sending` state under a lease, and an attempt log; subscriptions
 * get a signature scheme.
 *
 * `deliveries.next_attempt_at` now holds when a delivery becomes claimable: a pending one's
 * nextAttemptAt, a sending one's leaseExpiresAt, NULL once final. `lease_id` fences the
 * recording of an attempt's result.
 */
export const deliveryLeases = `
ALTER TABLE deliveries ADD COLUMN lease_id TEXT;
DROP INDEX deliveries_due;
CREATE INDEX deliveries_claimable ON deliveries (next_attempt_at) WHERE next_attempt_at IS NOT NULL;

UPDATE deliveries SET data = json_set(data,
  '$.scheduleFrom', 0, '$.leaseId', json('null'), '$.leaseExpiresAt', json('null'));
UPDATE deliveries SET next_attempt_at = NULL WHERE status <> 'pending';
UPDATE webhooks SET data = json_set(data, '$.signatureScheme', 'stripe');

CREATE TABLE delivery_attempts (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  subscription_id TEXT NOT NULL,
  delivery_id TEXT NOT NULL,
  number INTEGER NOT NULL,
  started_at TEXT NOT NULL,
  succeeded INTEGER NOT NULL,
  data TEXT NOT NULL
) STRICT;
CREATE INDEX delivery_attempts_by_delivery ON delivery_attempts (delivery_id, number);
CREATE INDEX delivery_attempts_by_subscription ON delivery_attempts (subscription_id, started_at);
`;
