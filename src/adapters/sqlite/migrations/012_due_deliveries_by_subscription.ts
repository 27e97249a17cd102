/**
 * Migration 12: the deliveries still to be sent (pending, or sending under a lease), by
 * subscription and due time.
 *
 * A thorough claim leaves out the rows of subscriptions and accounts with no slot left. Through
 * `deliveries_claimable` alone it walked every due row of those: a receiver too slow to keep up
 * builds a backlog of due rows, and every such claim scanned all of it (54 ms at 100,000) holding
 * the connection every request waits for. With this index a claim that leaves some out takes the
 * head of each other subscription's queue instead (webhooks.ts), at a cost that grows with the
 * number of subscriptions with work queued, not with how much work one of them has.
 *
 * Delivered and failed rows (no next attempt) are not in it. Frozen once released.
 */
export const dueDeliveriesBySubscription = `
CREATE INDEX deliveries_due_by_subscription ON deliveries (subscription_id, next_attempt_at)
  WHERE next_attempt_at IS NOT NULL;
`;
