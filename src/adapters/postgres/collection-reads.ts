import type { StoredJson } from '../../core/port/index.js';
import type { Where } from '../shared/collection-clauses.js';
import { storedJsonOf } from '../shared/stored-json.js';
import { accountOf } from './account-routes.js';
import {
  type CollectionContext,
  labelsOf,
  matching,
  parseRow,
  type Row,
  readKey,
  withoutWorkspace,
} from './collection-context.js';
import { predicateLock } from './collection-locks.js';
import { countedOf } from './counts/issue-counts.js';
import { type AheadRow, aheadRowKey } from './transaction-memo.js';

/** A PostgreSQL collection's reads by id and by filter (collections.ts assembles the store). */

/** A read transaction's row as stored: the one its token's grant read ahead (tenancy.ts), once, or read now. */
export async function readJson(
  ctx: CollectionContext,
  workspaceId: string,
  id: string,
): Promise<AheadRow | null> {
  const { conn, table, statements } = ctx;
  const key = aheadRowKey(table, workspaceId, id);
  const ahead = conn.memo.aheadRows.get(key);
  if (ahead !== undefined) {
    conn.memo.aheadRows.delete(key);
    return ahead;
  }
  return (
    (await conn.row<AheadRow>(statements.getJson, [id, workspaceId, await accountOf(conn, workspaceId)])) ??
    null
  );
}

/** A row by id: in a write transaction locked FOR KEY SHARE (or FOR NO KEY UPDATE when run again), its version remembered. */
export async function getRow(ctx: CollectionContext, workspaceId: string, id: string): Promise<Row | null> {
  const { conn, name, table, statements } = ctx;
  // A write transaction reads a row it refers to, or one it is about to change: FOR KEY SHARE
  // keeps it from being deleted until this one ends (a delete that counts its referrers first
  // waits for this one: lockReferenced) and lets other referrers and updaters through. Its
  // version is remembered: an update of it that finds another version lost a race, and the
  // transaction runs again, this time locking what it reads to change (FOR NO KEY UPDATE), so
  // that concurrent read-modify-writes of one row queue instead of failing again.
  const statement = !conn.writing
    ? statements.get
    : conn.rerun
      ? statements.getToChange
      : statements.getForWrite;
  // Read and locked alike in the grant's round trip (tenancy.ts), when the transaction was told
  // it reads this row first: taken once, as the first read of it.
  const aheadKey = aheadRowKey(table, workspaceId, id);
  const ahead = conn.writing ? conn.memo.aheadRows.get(aheadKey) : undefined;
  if (ahead !== undefined) conn.memo.aheadRows.delete(aheadKey);
  const data =
    ahead !== undefined
      ? ahead?.data
      : await conn.value<string>(statement, [id, workspaceId, await accountOf(conn, workspaceId)]);
  if (data === undefined) return null;
  const row = parseRow(data);
  if (conn.writing) {
    // Every version it read: a row read twice (a rule re-reads what the request read first) may
    // have changed between the reads, and an update from either read lost a race.
    const seen = conn.memo.readVersions.get(readKey(table, row.id));
    conn.memo.readVersions.set(readKey(table, row.id), seen ? [...seen, row.version] : [row.version]);
    if (name === 'issues') {
      conn.memo.issueLabels.set(row.id, labelsOf(name, row));
      conn.memo.issueCounted.set(row.id, countedOf(row));
    }
  }
  return row;
}

/** Collection.getJson: the stored text of a row, cut rather than parsed in a read transaction. */
export async function getJson(
  ctx: CollectionContext,
  workspaceId: string,
  id: string,
): Promise<StoredJson | null> {
  const { conn } = ctx;
  // A write transaction remembers the version it read (getRow); a read gets the text cut.
  if (conn.writing) {
    const row = await getRow(ctx, workspaceId, id);
    return row === null ? null : storedJsonOf(row);
  }
  const stored = await readJson(ctx, workspaceId, id);
  if (stored === null) return null;
  return {
    json: withoutWorkspace(stored.data, id, workspaceId) ?? storedJsonOf(parseRow(stored.data)).json,
    version: stored.version,
  };
}

/** Collection.findOne: the first row matching `where`. */
export async function findOne(
  ctx: CollectionContext,
  workspaceId: string,
  where: Where,
): Promise<Row | null> {
  const { conn, name, table } = ctx;
  // The relation graph of a workspace is checked (a relation that exists already, from either
  // end; a cycle; a second parent) and then written to: a write transaction's first look at it
  // takes its predicate lock exclusive, so concurrent relation writes of one workspace queue
  // and each sees the relations committed before it (see the lock audit).
  const accountId = await accountOf(conn, workspaceId);
  if (name === 'issueRelations') await predicateLock(ctx, accountId, workspaceId, true);
  const conditions = matching(ctx, accountId, workspaceId, where);
  const data = await conn.value<string>(
    `SELECT data FROM ${table} WHERE ${conditions.sql} ORDER BY pk LIMIT 1`,
    conditions.params,
  );
  return data === undefined ? null : parseRow(data);
}

/** A row read ahead and not taken yet is stale once the transaction writes it (or, without an id, any of the table's). */
export function forgetAhead(ctx: CollectionContext, workspaceId: string, id?: string): void {
  const { conn, table } = ctx;
  if (id !== undefined) {
    conn.memo.aheadRows.delete(aheadRowKey(table, workspaceId, id));
    return;
  }
  const prefix = aheadRowKey(table, workspaceId, '');
  for (const key of conn.memo.aheadRows.keys()) if (key.startsWith(prefix)) conn.memo.aheadRows.delete(key);
}
