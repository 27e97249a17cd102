/**
 * Issues have a due day (`dueOn`) and an estimate, each a column a list bounds and sorts by; how
 * many issues block one (`blockedBy`) gets a column too, which `blocked=` bounds
 * (indexes on the sort keys as `sortKeySql` writes them: a missing day after every day, a missing
 * estimate above every estimate). Issues and outcomes get `overdue_signalled_for`: the due day the
 * overdue sweep last signalled the row for, claimed by a conditional UPDATE in the transaction
 * that records the signal, so a day passes once per row however many processes sweep, and a moved
 * day passes again. The sweep finds its rows through partial indexes of the rows with a due day not
 * yet signalled for it (a row signalled leaves the index; one closed before its day stays, skipped).
 *
 * Existing issues get `"dueOn":null,"estimate":null` at the end of their JSON text (a text edit,
 * not jsonb, which would reorder the members).
 * Frozen once released: the tables are listed here, not derived from the code.
 */
export const dueDatesAndEstimates = `
ALTER TABLE issues ADD COLUMN due_on text COLLATE "C", ADD COLUMN estimate double precision,
  ADD COLUMN overdue_signalled_for text COLLATE "C", ADD COLUMN blocked_by integer;
UPDATE issues SET blocked_by = COALESCE(substring(data from '"blockedBy":([0-9]+)')::integer, 0);
ALTER TABLE outcomes ADD COLUMN overdue_signalled_for text COLLATE "C";
UPDATE issues SET data = left(data, -1) || ',"dueOn":null,"estimate":null}';
CREATE INDEX issues_sorted_due_on ON issues (workspace_id, COALESCE(due_on, '~'), id);
CREATE INDEX issues_sorted_estimate ON issues (workspace_id, COALESCE(estimate, 1000000000), id);
CREATE INDEX issues_due_unsignalled ON issues (due_on) WHERE due_on IS NOT NULL AND overdue_signalled_for IS DISTINCT FROM due_on;
CREATE INDEX outcomes_due_unsignalled ON outcomes (due_date) WHERE due_date IS NOT NULL AND overdue_signalled_for IS DISTINCT FROM due_date;
`;
