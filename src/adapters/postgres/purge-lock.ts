import type { Conn } from './connection.js';

/**
 * Periodic purges run on one process at a time: each takes a transaction-scoped advisory lock
 * of its own first and, when another process holds it (purging the same table right now),
 * purges nothing. Every process may call purge on its timer; only one does the work.
 */
export async function purgeLockTaken(conn: Conn, job: string): Promise<boolean> {
  return (
    (await conn.value<boolean>('SELECT pg_try_advisory_xact_lock(1869574505, hashtext($1))', [job])) === true
  );
}
