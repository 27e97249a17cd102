/**
 * Migration 17: lists sort by other fields than creation time (`sort=`), keyset on (the field's
 * sort key, id). Each sort field gets an index on (workspace_id, sort key, id), which a page
 * walks either way from its cursor. Issue titles, outcome titles and due dates get columns of
 * their own, filled from the rows' JSON. Severity and status sort by rank, not alphabetically,
 * and a missing due date after every date: the indexes are on those expressions, written here
 * exactly as `sortKeySql` writes them in queries (SQLite uses an index on an expression only for
 * the same expression). Time entries by date read `time_entries_by_date` (migration 1), which
 * their date ranges read too: one more index on the date would only divide the planner's choice.
 * Frozen once released: the tables and expressions are listed here, not derived from the code.
 */

const byUpdateTime = ['projects', 'issues', 'outcomes', 'context_items', 'decisions', 'comments']
  .map((table) => `CREATE INDEX ${table}_sorted_updated ON ${table} (workspace_id, updated_at, id);`)
  .join('\n');

export const sortOrders = `
ALTER TABLE issues ADD COLUMN title TEXT;
UPDATE issues SET title = json_extract(data, '$.title');
ALTER TABLE outcomes ADD COLUMN title TEXT;
ALTER TABLE outcomes ADD COLUMN due_date TEXT;
UPDATE outcomes SET title = json_extract(data, '$.title'), due_date = json_extract(data, '$.dueDate');
${byUpdateTime}
CREATE INDEX issues_sorted_number ON issues (workspace_id, number, id);
CREATE INDEX issues_sorted_severity ON issues (workspace_id, (CASE severity WHEN 'low' THEN 0 WHEN 'medium' THEN 1 WHEN 'high' THEN 2 WHEN 'critical' THEN 3 END), id);
CREATE INDEX issues_sorted_status ON issues (workspace_id, (CASE status WHEN 'open' THEN 0 WHEN 'in_progress' THEN 1 WHEN 'blocked' THEN 2 WHEN 'resolved' THEN 3 WHEN 'closed' THEN 4 END), id);
CREATE INDEX issues_sorted_title ON issues (workspace_id, title, id);
CREATE INDEX outcomes_sorted_due_date ON outcomes (workspace_id, COALESCE(due_date, '~'), id);
CREATE INDEX outcomes_sorted_title ON outcomes (workspace_id, title, id);
CREATE INDEX time_entries_sorted_minutes ON time_entries (workspace_id, minutes, id);
`;
