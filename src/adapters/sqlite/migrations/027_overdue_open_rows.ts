/**
 * Migration 27: the overdue sweep's partial indexes hold only the rows it may signal: open and not
 * archived, besides a due day not yet signalled for. Before, a row closed or archived before its
 * day stayed in the index for good, and every sweep (every process, every minute) walked past all
 * of them, in day order, before the first open one: a cost that grew with every issue resolved
 * with a due day. The statuses are the open ones of the core's model (`openIssueStatuses`,
 * `openOutcomeStatuses`), in their order; the sweep's statement names them as literals, the
 * same, so SQLite reads the index.
 * Frozen once released.
 */
export const overdueOpenRows = `
DROP INDEX issues_due_unsignalled;
DROP INDEX outcomes_due_unsignalled;
CREATE INDEX issues_due_unsignalled ON issues (due_on) WHERE due_on IS NOT NULL AND overdue_signalled_for IS NOT due_on AND status IN ('open', 'in_progress', 'blocked') AND archived_at IS NULL;
CREATE INDEX outcomes_due_unsignalled ON outcomes (due_date) WHERE due_date IS NOT NULL AND overdue_signalled_for IS NOT due_date AND status IN ('planned', 'in_progress') AND archived_at IS NULL;
`;
