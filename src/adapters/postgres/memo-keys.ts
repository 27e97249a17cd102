/**
 * Names under which a transaction remembers what it holds (Conn.memo), shared by the stores that
 * take a lock and those that rely on it.
 */

/** Set in a transaction's memo once it took a number from a counter (see collections.ts). */
export const numberTaken = 'counters.taken';

/** Where a transaction keeps which predicate lock (see predicateLock) it holds of a table and workspace. */
export const predicateMemoKey = (table: string, workspaceId: string): string =>
  `predicate\u0000${table}:${workspaceId}`;

/** Where a transaction keeps the row it was told it reads first (RowRead), until its grant reads it. */
export const readsFirstKey = 'reads.first';

/** Where a write transaction keeps the Idempotency-Key it was told it claims first, until its grant claims it. */
export const claimsKeyKey = 'claims.key';

/** Where the grant's round trip leaves its claim of that key (ClaimedAhead) for IdempotencyStore.get. */
export const claimedAheadKey = 'claims.ahead';

/** A key claimed in the grant's round trip: its workspace and whether the claim inserted it. */
export interface ClaimedAhead {
  workspaceId: string;
  key: string;
  claimed: boolean;
}

/** Where the grant's statement leaves that row (AheadRow, or null when the workspace has none) for getJson. */
export const aheadRowKey = (table: string, workspaceId: string, id: string): string =>
  `ahead\u0000${table}:${workspaceId}:${id}`;

/** A row read ahead with the token's grant: its stored text and version. */
export interface AheadRow {
  data: string;
  version: number;
}
