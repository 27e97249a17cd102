/**
 * Migration 10: no change to the schema, a change of what it holds. A create's idempotency
 * record may now refer to the create's signal for the answer a retry replays, `{"signalId": …}`
 * in place of the answer itself (IdempotencyRecord.body). A version before this one would read
 * such a record as a broken answer and fail the replay: the version number makes it refuse to
 * open a database this one has written to (SchemaTooNew), as for any newer schema.
 * Frozen once released.
 */
export const idempotencyAnswersInSignals = `
-- Idempotency records may refer to signals for their answers (see the comment above).
SELECT 1;
`;
