/**
 * Names under which a transaction remembers what it holds (Conn.memo), shared by the stores that
 * take a lock and those that rely on it.
 */

/** Set in a transaction's memo once it took a number from a counter (see collections.ts). */
export const numberTaken = 'counters.taken';

/** Where a transaction keeps which predicate lock (see predicateLock) it holds of a table and workspace. */
export const predicateMemoKey = (table: string, workspaceId: string): string =>
  `predicate\u0000${table}:${workspaceId}`;
