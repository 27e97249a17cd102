import type { DueCollection, OverdueCandidate, OverdueRule, OverdueStore } from '../../core/port/index.js';
import { statusInLiterals } from '../shared/status-literals.js';
import { accountOf } from './account-routes.js';
import type { Conn } from './connection.js';

/** Each collection's table and due-day column. */
const dueColumn = {
  issues: { table: 'issues', column: 'due_on' },
  outcomes: { table: 'outcomes', column: 'due_date' },
} as const;

/**
 * The rows overdue under a rule and not yet signalled for their day, in `<table>_due_unsignalled`
 * (migration 27), whose predicate the condition repeats; `$first` is the day.
 */
function unsignalled(collection: DueCollection, first: number, statuses: readonly string[]): string {
  const { column } = dueColumn[collection];
  return (
    `${column} IS NOT NULL AND overdue_signalled_for IS DISTINCT FROM ${column} ` +
    `AND ${column} < $${first} AND ${statusInLiterals(statuses)} AND archived_at IS NULL`
  );
}

/**
 * The overdue sweep's rows in PostgreSQL: `overdue_signalled_for` beside each row (migration 20).
 * The claim is one conditional UPDATE: under READ COMMITTED, a second sweep claiming the same row
 * waits for the first one's lock and re-checks the condition on the row it committed, which no
 * longer holds, so of N processes exactly one records the signal.
 */
export function postgresOverdue(conn: Conn): OverdueStore {
  return {
    async findDue(collection, rule: OverdueRule, limit) {
      const { table, column } = dueColumn[collection];
      return conn.rows<OverdueCandidate & Record<string, string>>(
        `/* all accounts: the overdue sweep finds the rows past their day in every account */ ` +
          `SELECT account_id AS "accountId", workspace_id AS "workspaceId", id FROM ${table} ` +
          `WHERE ${unsignalled(collection, 1, rule.statuses)} ORDER BY ${column} LIMIT $2`,
        [rule.before, limit],
      );
    },
    async claim(collection, workspaceId, id, rule) {
      const { table, column } = dueColumn[collection];
      const account = await accountOf(conn, workspaceId);
      const data = await conn.value<string>(
        `UPDATE ${table} SET overdue_signalled_for = ${column} ` +
          `WHERE account_id = $1 AND workspace_id = $2 AND id = $3 AND ${unsignalled(collection, 4, rule.statuses)} RETURNING data`,
        [account, workspaceId, id, rule.before],
      );
      return data === undefined ? null : JSON.parse(data);
    },
  };
}
