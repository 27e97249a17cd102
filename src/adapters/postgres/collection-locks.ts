import type { Where } from '../shared/collection-clauses.js';
import type { CollectionContext } from './collection-context.js';
import { shapes } from './collection-sql.js';
import { lockExclusive, lockShared, tryLockExclusive } from './tenant-locks.js';
import { predicateKey } from './transaction-memo.js';

/** The locks a PostgreSQL collection's statements take before they read or write (see the lock audit). */

/** Filter fields that name a row of another collection, and that collection's table. */
const referencedBy: Readonly<Record<string, string>> = {
  projectId: shapes.projects.table,
  outcomeId: shapes.outcomes.table,
  issueId: shapes.issues.table,
};

/**
 * Before counting (or deleting) the rows of a write transaction that refer to a row: that row,
 * locked FOR UPDATE in a statement of its own. A transaction creating a referrer holds FOR KEY
 * SHARE on it (getRow) until it commits, so once the lock is held the count, a statement
 * begun after, sees every referrer; and no referrer is created until this transaction ends.
 */
export async function lockReferenced(
  ctx: CollectionContext,
  accountId: string,
  workspaceId: string,
  where: Where,
): Promise<void> {
  const { conn } = ctx;
  if (!conn.writing) return;
  for (const [field, referenced] of Object.entries(referencedBy)) {
    const id = where?.[field];
    if (typeof id !== 'string') continue;
    await conn.run(
      `SELECT 1 FROM ${referenced} WHERE account_id = $3 AND id = $1 AND workspace_id = $2 FOR UPDATE`,
      [id, workspaceId, accountId],
    );
  }
}

/**
 * The predicate lock of the workspace's rows of this table (see the lock audit), a row of the
 * account's (tenant-locks.ts): writers that insert hold it shared, a write transaction that
 * counts or lists them holds it exclusive, so its total includes every insert committed before
 * and none that commits after it. A transaction that inserted and then counts would wait for
 * one that does the same: it tries once, and loses the race (run again) rather than wait into
 * a deadlock.
 */
export async function predicateLock(
  ctx: CollectionContext,
  accountId: string,
  workspaceId: string,
  exclusive: boolean,
): Promise<void> {
  const { conn, table } = ctx;
  if (!conn.writing) return;
  const key = predicateKey(table, workspaceId);
  const held = conn.memo.predicateLocks.get(key);
  if (held === 'exclusive' || (held === 'shared' && !exclusive)) return;
  if (!exclusive) await lockShared(conn, accountId, key);
  else if (held === undefined) await lockExclusive(conn, accountId, key);
  else if (!(await tryLockExclusive(conn, accountId, key)))
    throw conn.deadlocked(`${table}: counted while another transaction inserts (run again)`);
  conn.memo.predicateLocks.set(key, exclusive ? 'exclusive' : 'shared');
}
