/**
 * The deliveries still to be sent (pending, or sending under a lease), by subscription and due
 * time. A thorough claim that leaves out subscriptions or accounts with no slot left walked every
 * due row of those through `deliveries_claimable`: a receiver too slow to keep up builds a backlog,
 * and every such claim scanned all of it. With this index it takes the head of each other
 * subscription's queue instead (webhooks.ts), as on SQLite (its migration 12).
 * Frozen once released.
 */
export const dueDeliveriesBySubscription = `
CREATE INDEX deliveries_due_by_subscription ON deliveries (subscription_id, next_attempt_at, pk)
  WHERE next_attempt_at IS NOT NULL;
`;
