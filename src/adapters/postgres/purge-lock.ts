import type { Conn } from './connection.js';

/**
 * Periodic purges run on one process at a time: each takes a transaction-scoped advisory lock
 * of its own first and, when another process holds it (purging the same table right now),
 * purges nothing. Every process may call purge on its timer; only one does the work.
 *
 * An advisory lock holds on one node only: on a distributed database (Citus) it is taken on the
 * coordinator, which every process's purge goes through (purges span accounts: `/* all accounts:
 * … *\/`), so it still lets one purge run at a time. It guards maintenance, never a request.
 */
export async function purgeLockTaken(conn: Conn, job: string): Promise<boolean> {
  return (
    (await conn.value<boolean>('SELECT pg_try_advisory_xact_lock(1869574505, hashtext($1))', [job])) === true
  );
}
