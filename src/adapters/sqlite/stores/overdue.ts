import type { DueCollection, OverdueCandidate, OverdueRule, OverdueStore } from '../../../core/port/index.js';
import { statusInLiterals } from '../../shared/status-literals.js';
import type { Conn } from '../engine/types.js';

/** Each collection's table and due-day column. */
const dueColumn = {
  issues: { table: 'issues', column: 'due_on' },
  outcomes: { table: 'outcomes', column: 'due_date' },
} as const;

/**
 * The rows overdue under a rule and not yet signalled for their day, in `<table>_due_unsignalled`
 * (migration 27), whose predicate the condition repeats word for word so SQLite reads it.
 */
const unsignalled = (collection: DueCollection, statuses: readonly string[], prefix = '') => {
  const { column } = dueColumn[collection];
  return (
    `${prefix}${column} IS NOT NULL AND ${prefix}overdue_signalled_for IS NOT ${prefix}${column} ` +
    `AND ${prefix}${column} < ? AND ${statusInLiterals(statuses, prefix)} AND ${prefix}archived_at IS NULL`
  );
};

/** The overdue sweep's rows in SQLite: `overdue_signalled_for` beside each row (migration 21). */
export function sqliteOverdue(conn: Conn): OverdueStore {
  return {
    async findDue(collection, rule: OverdueRule, limit) {
      const { table, column } = dueColumn[collection];
      return conn.rows<OverdueCandidate>(
        `SELECT w.account_id AS accountId, r.workspace_id AS workspaceId, r.id AS id FROM ${table} r ` +
          `JOIN workspaces w ON w.id = r.workspace_id ` +
          `WHERE ${unsignalled(collection, rule.statuses, 'r.')} ORDER BY r.${column} LIMIT ?`,
        [rule.before, limit],
      );
    },
    async claim(collection, workspaceId, id, rule) {
      const { table, column } = dueColumn[collection];
      const claimed = conn.run(
        `UPDATE ${table} SET overdue_signalled_for = ${column} ` +
          `WHERE id = ? AND workspace_id = ? AND ${unsignalled(collection, rule.statuses)}`,
        [id, workspaceId, rule.before],
      );
      if (claimed === 0) return null;
      const data = conn.value<string>(`SELECT data FROM ${table} WHERE id = ? AND workspace_id = ?`, [
        id,
        workspaceId,
      ]);
      return data === undefined ? null : JSON.parse(data);
    },
  };
}
