import type { Conn } from './connection.js';
import { prepared } from './prepared.js';
import type { Claim } from './transaction-memo.js';

/**
 * Claiming an Idempotency-Key (see the lock audit in transaction.ts): a write transaction
 * inserts a placeholder under the key before the request does any work, or waits on the key's
 * unique index while a transaction that claimed it is open, and inserts nothing once that one
 * committed its answer. A claimed key no answer was stored under is given back with the COMMIT.
 */

/** Claims a key: $1 workspace, $2 key, $3 '' (the placeholder's date), $4 the placeholder, $5 account. */
export const claimSql = prepared(
  'INSERT INTO idempotency_keys (workspace_id, key, created_at, data, account_id) VALUES ($1, $2, $3, $4, $5) ' +
    'ON CONFLICT DO NOTHING RETURNING 1',
);

/** A claimed key no answer was stored under: given back with the COMMIT. */
const unclaimSql =
  'DELETE FROM idempotency_keys WHERE account_id = $4 AND workspace_id = $1 AND key = $2 AND created_at = $3';

/**
 * The placeholder of a claimed key. Dated '' (before any time): were it ever seen, it would read
 * as expired, and the next request with the key would replace it.
 */
export const placeholder = (workspaceId: string, key: string): string =>
  JSON.stringify({ workspaceId, key, fingerprint: '', createdAt: '', status: 0, body: 'null', headers: {} });

/** A claimed key's name among a transaction's claims. */
export const claimId = (workspaceId: string, key: string) => `${workspaceId}\u0000${key}`;

/** Where a transaction's stores keep the keys it claimed, by claimId. */
export const claimsOf = (conn: Conn): Map<string, Claim> => conn.memo.claims;

/** Keeps a key this transaction claimed: unanswered for now, and given back at the commit unless answered. */
export function keepClaim(conn: Conn, workspaceId: string, key: string, accountId: string): void {
  // Runs at the commit after the answers: gives the key back when none was stored.
  const withdrawGiveBack = conn.atCommit(unclaimSql, [workspaceId, key, '', accountId], { last: true });
  claimsOf(conn).set(claimId(workspaceId, key), { answered: false, withdrawGiveBack });
}
