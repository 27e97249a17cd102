import type { AccountRoutes } from './account-routes.js';
import { type Prepared, prepared } from './prepared.js';

/** What the locks take of a transaction's Conn. */
interface Conn {
  readonly routes: AccountRoutes;
  run(sql: Prepared, params: readonly unknown[]): Promise<number>;
}

/**
 * Row locks standing in for the predicate locks of collections.ts (one per table and workspace),
 * which were advisory locks: those hold on one node only, and a database distributed by account
 * must lock rows of the account instead. `tenant_locks` (migration 17) has a row per (account,
 * name); a write transaction holds it FOR SHARE to insert into the table and workspace it names,
 * and FOR UPDATE to count or list them, so such a count includes every insert committed before
 * and none after it.
 *
 * A row is made the first time a name is locked, in a statement of its own before the lock (an
 * insert that waited for another transaction's insert of the row then sees it in the next
 * statement, which a statement doing both would not). Rows are never deleted, so once one was
 * made or seen the storage remembers it (AccountRoutes) and goes straight to the lock.
 */

const makeSql = prepared(
  'INSERT INTO tenant_locks (account_id, name) VALUES ($1, $2) ON CONFLICT DO NOTHING',
);
export const sharedSql = prepared('SELECT 1 FROM tenant_locks WHERE account_id = $1 AND name = $2 FOR SHARE');
const exclusiveSql = prepared('SELECT 1 FROM tenant_locks WHERE account_id = $1 AND name = $2 FOR UPDATE');
/** FOR UPDATE, or nothing when another transaction holds the row (this one's own locks do not count). */
const tryExclusiveSql = prepared(
  'SELECT 1 FROM tenant_locks WHERE account_id = $1 AND name = $2 FOR UPDATE SKIP LOCKED',
);

/** How a lock's statements are sent (Conn.run, or the connection's own sending of a held write). */
export type RunStatement = (sql: Prepared, params: readonly unknown[]) => Promise<number>;

/**
 * Makes sure the lock row exists (no statement once the storage has seen it). Seen is not always
 * committed (a row this transaction made, then rolled back): a lock statement that finds no row
 * makes it again (lockWith).
 */
export async function ensureLockRow(
  conn: Conn,
  accountId: string,
  name: string,
  run: RunStatement,
): Promise<void> {
  if (conn.routes.hasLockRow(accountId, name)) return;
  await run(makeSql, [accountId, name]);
  conn.routes.rememberLockRow(accountId, name);
}

/** Runs a lock statement on the row, made first when missing; how many rows it locked. */
async function lockWith(conn: Conn, sql: Prepared, accountId: string, name: string, run: RunStatement) {
  await ensureLockRow(conn, accountId, name, run);
  const locked = await run(sql, [accountId, name]);
  if (locked > 0 || sql === tryExclusiveSql) return locked;
  await run(makeSql, [accountId, name]);
  return run(sql, [accountId, name]);
}

const runOn =
  (conn: Conn): RunStatement =>
  (sql, params) =>
    conn.run(sql, params);

/** Holds the lock FOR SHARE until the transaction ends. */
export async function lockShared(
  conn: Conn,
  accountId: string,
  name: string,
  run = runOn(conn),
): Promise<void> {
  await lockWith(conn, sharedSql, accountId, name, run);
}

/** Holds the lock FOR UPDATE until the transaction ends, waiting for the transactions that hold it. */
export async function lockExclusive(conn: Conn, accountId: string, name: string): Promise<void> {
  await lockWith(conn, exclusiveSql, accountId, name, runOn(conn));
}

/** Holds the lock FOR UPDATE if no other transaction holds it; false when one does. */
export async function tryLockExclusive(conn: Conn, accountId: string, name: string): Promise<boolean> {
  return (await lockWith(conn, tryExclusiveSql, accountId, name, runOn(conn))) > 0;
}
