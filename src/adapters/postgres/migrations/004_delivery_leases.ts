const text = 'text COLLATE "C"';

/**
 * Deliveries get an explicit `sending` state under a lease, and an attempt log; subscriptions
 * get a signature scheme.
 *
 * `deliveries.next_attempt_at` now holds when a delivery becomes claimable: a pending one's
 * nextAttemptAt, a sending one's leaseExpiresAt, NULL once final; the JSON in `data` holds the
 * whole delivery. `lease_id` fences the recording of an attempt's result.
 */
export const deliveryLeases = `
ALTER TABLE deliveries ADD COLUMN lease_id ${text};
DROP INDEX deliveries_due;
CREATE INDEX deliveries_claimable ON deliveries (next_attempt_at, pk) WHERE next_attempt_at IS NOT NULL;

UPDATE deliveries SET data = (data::jsonb || jsonb_build_object(
  'status', status, 'nextAttemptAt', next_attempt_at,
  'scheduleFrom', 0, 'leaseId', NULL, 'leaseExpiresAt', NULL))::text;
UPDATE deliveries SET next_attempt_at = NULL WHERE status <> 'pending';
UPDATE webhooks SET data = (data::jsonb || '{"signatureScheme": "stripe"}'::jsonb)::text;

CREATE TABLE delivery_attempts (
  pk bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  id ${text} PRIMARY KEY,
  account_id ${text} NOT NULL,
  subscription_id ${text} NOT NULL,
  delivery_id ${text} NOT NULL,
  number integer NOT NULL,
  started_at ${text} NOT NULL,
  succeeded boolean NOT NULL,
  data text NOT NULL
);
CREATE INDEX delivery_attempts_by_delivery ON delivery_attempts (delivery_id, number);
CREATE INDEX delivery_attempts_by_subscription ON delivery_attempts (subscription_id, started_at);
`;
