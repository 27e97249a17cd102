/**
 * Migration 2: each rate-limit row remembers whether its last take was admitted, so one upsert
 * both decides and reports (RETURNING sees only the new row).
 */
export const rateLimitDecisions = `
ALTER TABLE rate_limits ADD COLUMN admitted boolean NOT NULL DEFAULT true;
CREATE INDEX rate_limits_newest ON rate_limits ((hits[cardinality(hits)]));
`;
