import { fieldValue, UniqueViolation, VersionMismatch } from '../../core/port/index.js';
import type { Where } from '../shared/collection-clauses.js';
import { columnOf, rowValues } from '../shared/collection-table.js';
import { accountOf } from './account-routes.js';
import {
  type CollectionContext,
  labelsAdded,
  labelsOf,
  matching,
  parseRow,
  type Row,
  readKey,
} from './collection-context.js';
import { lockReferenced, predicateLock } from './collection-locks.js';
import { forgetAhead } from './collection-reads.js';
import { postgresDialect, uniqueFields } from './collection-sql.js';
import { countedOf, type IssueCounted } from './counts/issue-counts.js';
import { withUniqueRules } from './errors.js';
import { issueLabelWrites } from './labels.js';
import { ensureLockRow } from './tenant-locks.js';
import { predicateKey } from './transaction-memo.js';

/** A PostgreSQL collection's writes (collections.ts assembles the store). */

/** Which unique rule an insert that inserted nothing ran into. */
export async function clashOf(ctx: CollectionContext, accountId: string, row: Row): Promise<UniqueViolation> {
  const { conn, name, shape, table } = ctx;
  const taken = await conn.value<number>(`SELECT 1 FROM ${table} WHERE account_id = $2 AND id = $1`, [
    row.id,
    accountId,
  ]);
  if (taken !== undefined) return new UniqueViolation(`${name}.id`);
  for (const what of Object.values(shape.uniqueRules)) {
    const fields = uniqueFields[what] ?? [];
    const values = fields.map((field) => fieldValue(row, field) ?? null);
    if (values.includes(null)) continue;
    const held = await conn.value<number>(
      `SELECT 1 FROM ${table} WHERE account_id = $1 AND workspace_id = $2 AND ${fields
        .map((field, i) => `${columnOf(field)} = $${i + 3}`)
        .join(' AND ')} AND id <> $${fields.length + 3}`,
      [accountId, row.workspaceId, ...values, row.id],
    );
    if (held !== undefined) return new UniqueViolation(what);
  }
  const [what] = Object.values(shape.uniqueRules);
  return new UniqueViolation(what ?? `${name}.id`);
}

/**
 * An issue's update with its labels kept: only a change of labels costs statements, the labels
 * it had known from the transaction's read of it (as every update reads it first), else from its
 * stored text, read and locked first (countedBefore); those go with the update.
 */
async function updateIssue(
  ctx: CollectionContext,
  accountId: string,
  row: Row,
  update: { sql: string; params: unknown[] },
): Promise<number> {
  const { conn, name } = ctx;
  const labels = labelsOf(name, row);
  const read = conn.memo.issueLabels.get(row.id);
  const counted = await countedBefore(ctx, accountId, row);
  const labelWrites = (had: readonly string[]) => {
    const removed = had.filter((label) => !labels.includes(label));
    const added = labels.filter((label) => !had.includes(label));
    return [
      ...(removed.length === 0
        ? []
        : [issueLabelWrites.removed(accountId, row.workspaceId, row.id, removed)]),
      ...issueLabelWrites.added(accountId, row.workspaceId, row.id, added),
    ];
  };
  if (read === undefined) {
    // Not read by this transaction: the label writes go with the update, in one round trip. Where
    // it matched nothing (a version changed, or no such issue), the request fails and they with it.
    const had = counted?.labels;
    const results = await conn.batch([update, ...(had === undefined ? [] : labelWrites(had))]);
    const changed = results[0]?.rowCount ?? 0;
    conn.memo.issueLabels.set(row.id, labels);
    if (changed === 1) countedNow(ctx, accountId, row, counted);
    return changed;
  }
  const changed = await conn.run(update.sql, update.params);
  if (changed !== 1) return changed;
  countedNow(ctx, accountId, row, counted);
  conn.memo.issueLabels.set(row.id, labels);
  const writes = labelWrites(read);
  if (writes.length > 0) await conn.batch(writes);
  return changed;
}

/**
 * The counted fields of an issue about to be updated (counts/issue-counts.ts): as this
 * transaction read it (an update that succeeds found the version it read, so the row as read),
 * else as stored now, read and locked so that it cannot change before the update. Its stored
 * text is parsed here, not by PostgreSQL, whose JSON cannot hold every text an issue may (a
 * U+0000 anywhere in it), so its labels are those its index was written from.
 */
async function countedBefore(
  ctx: CollectionContext,
  accountId: string,
  row: Row,
): Promise<IssueCounted | null> {
  const { conn, table } = ctx;
  const read = conn.memo.issueCounted.get(row.id);
  if (read !== undefined) return read;
  const stored = await conn.value<string>(
    `SELECT data FROM ${table} WHERE account_id = $1 AND workspace_id = $2 AND id = $3 FOR NO KEY UPDATE`,
    [accountId, row.workspaceId, row.id],
  );
  return stored === undefined ? null : countedOf(parseRow(stored));
}

/** An issue written as `row`, counted as `before` until then: its counts change with the COMMIT. */
function countedNow(ctx: CollectionContext, accountId: string, row: Row, before: IssueCounted | null): void {
  const { conn } = ctx;
  const after = countedOf(row);
  conn.memo.issueCounted.set(row.id, after);
  conn.memo.issueCounts.moved(conn, accountId, row.workspaceId, before, after);
}

/** Collection.insert: a numbered issue held for the statement (or the COMMIT) that carries it; any other row sent at once. */
export async function insertRow(ctx: CollectionContext, row: Row, json?: string): Promise<void> {
  const { conn, name, shape, table, insertSql } = ctx;
  const accountId = await accountOf(conn, row.workspaceId);
  const params = [row.id, row.workspaceId, ...rowValues(shape, postgresDialect, row, json), accountId];
  const lockKey = predicateKey(table, row.workspaceId);
  // An issue of another tracker may clash on its external id: it is sent at once, so that the
  // clash is found by its own statement (clashOf), not by the COMMIT.
  const numbered =
    conn.writing && name === 'issues' && conn.memo.numberTaken && fieldValue(row, 'external.id') == null;
  if (numbered && conn.memo.predicateLocks.has(lockKey)) {
    // A numbered row whose predicate lock the number's statement took (records.ts): sent
    // with the COMMIT, unless a statement comes first. Its id is new and its number the
    // counter's, so it clashes with nothing; were it to, the COMMIT fails with it.
    conn.hold({
      sql: insertSql,
      params,
      atCommitSql: insertSql.replace(/ ON CONFLICT DO NOTHING$/, ''),
      check: async (inserted) => {
        if (inserted === 0) throw await clashOf(ctx, accountId, row);
      },
      after: labelsAdded(ctx, accountId, row),
    });
    // Counted now: the insert may go with the COMMIT, and fails it rather than clash.
    countedNow(ctx, accountId, row, null);
    return;
  }
  if (numbered && !conn.memo.predicateLocks.has(lockKey)) {
    // A numbered row (its number from the counter this transaction took): sent with the
    // transaction's next statement, the create's signal (signals.ts). Its id is new and its
    // number the counter's, so it clashes with nothing.
    // The statement that carries it locks the row: it must exist by then.
    const sharedLock = { accountId, name: lockKey };
    await ensureLockRow(conn, accountId, sharedLock.name, (sql, p) => conn.run(sql, p));
    conn.memo.predicateLocks.set(lockKey, 'shared');
    conn.hold({
      sql: insertSql,
      params,
      sharedLock,
      check: async (inserted) => {
        if (inserted === 0) throw await clashOf(ctx, accountId, row);
        countedNow(ctx, accountId, row, null);
      },
      after: labelsAdded(ctx, accountId, row),
    });
    return;
  }
  await predicateLock(ctx, accountId, row.workspaceId, false);
  const inserted = await conn.run(insertSql, params);
  if (inserted === 0) throw await clashOf(ctx, accountId, row);
  if (name === 'issues') countedNow(ctx, accountId, row, null);
  const labels = labelsAdded(ctx, accountId, row);
  if (labels.length > 0) await conn.batch(labels);
}

/** Collection.update: the row replaced when its version is the expected one. */
export async function updateRow(ctx: CollectionContext, row: Row, expectedVersion: number): Promise<void> {
  const { conn, name, shape, table, updateSql } = ctx;
  forgetAhead(ctx, row.workspaceId, row.id);
  const accountId = await accountOf(conn, row.workspaceId);
  const update = {
    sql: updateSql,
    params: [...rowValues(shape, postgresDialect, row), row.id, row.workspaceId, expectedVersion, accountId],
  };
  const changed = await withUniqueRules(shape.uniqueRules, () =>
    name === 'issues' ? updateIssue(ctx, accountId, row, update) : conn.run(update.sql, update.params),
  );
  if (changed === 1) return;
  const current = await conn.value<number>(
    `SELECT version FROM ${table} WHERE account_id = $3 AND id = $1 AND workspace_id = $2`,
    [row.id, row.workspaceId, accountId],
  );
  // The version this transaction read changed under it: a lost race, not a stale request.
  const read = conn.memo.readVersions.get(readKey(table, row.id));
  if (conn.writing && read?.includes(expectedVersion))
    throw conn.deadlocked(`${name}: ${row.id} changed after this transaction read it (run again)`);
  throw new VersionMismatch(current ?? null);
}

/** Collection.delete: one row by id, an issue with its labels. */
export async function deleteRow(ctx: CollectionContext, workspaceId: string, id: string): Promise<boolean> {
  const { conn, name, table } = ctx;
  forgetAhead(ctx, workspaceId, id);
  const accountId = await accountOf(conn, workspaceId);
  const remove = {
    sql: `DELETE FROM ${table} WHERE account_id = $3 AND id = $1 AND workspace_id = $2`,
    params: [id, workspaceId, accountId],
  };
  if (name !== 'issues') return (await conn.run(remove.sql, remove.params)) > 0;
  const read = conn.memo.issueLabels.get(id);
  conn.memo.issueLabels.delete(id);
  conn.memo.issueCounted.delete(id);
  const returning = { sql: `${remove.sql} RETURNING pk, data`, params: remove.params };
  // Its labels as read: their rows go in the same round trip, before it. Else they go after it,
  // by the labels of the text it returns, parsed here (PostgreSQL's JSON cannot read every text
  // an issue may hold: a U+0000 anywhere in it), so exactly the rows its labels were indexed by.
  const [gone] =
    read === undefined
      ? await conn.rows<{ pk: number; data: string }>(returning.sql, returning.params)
      : (((await conn.batch([issueLabelWrites.removed(accountId, workspaceId, id, read), returning]))[1]
          ?.rows ?? []) as { pk: number; data: string }[]);
  if (gone === undefined) return false;
  const row = parseRow(gone.data);
  if (read === undefined) {
    const labels = issueLabelWrites.deletedRows(accountId, workspaceId, [
      { pk: gone.pk, labels: labelsOf(name, row) },
    ]);
    await conn.run(labels.sql, labels.params);
  }
  conn.memo.issueCounts.moved(conn, accountId, workspaceId, countedOf(row), null);
  return true;
}

/** Collection.deleteWhere: every row matching `where`, given back in insertion order. */
export async function deleteWhere(ctx: CollectionContext, workspaceId: string, where: Where): Promise<Row[]> {
  const { conn, name, table } = ctx;
  forgetAhead(ctx, workspaceId);
  const accountId = await accountOf(conn, workspaceId);
  await lockReferenced(ctx, accountId, workspaceId, where as Where);
  await predicateLock(ctx, accountId, workspaceId, true);
  const conditions = matching(ctx, accountId, workspaceId, where);
  const deleted = await conn.rows<{ pk: number; data: string }>(
    `DELETE FROM ${table} WHERE ${conditions.sql} RETURNING pk, data`,
    conditions.params,
  );
  const gone = deleted.sort((a, b) => a.pk - b.pk).map(({ pk, data }) => ({ pk, row: parseRow(data) }));
  const rows = gone.map(({ row }) => row);
  if (name === 'issues' && deleted.length > 0) {
    const labels = issueLabelWrites.deletedRows(
      accountId,
      workspaceId,
      gone.map(({ pk, row }) => ({ pk, labels: labelsOf(name, row) })),
    );
    await conn.run(labels.sql, labels.params);
    for (const row of rows) {
      conn.memo.issueCounted.delete(row.id);
      conn.memo.issueCounts.moved(conn, accountId, workspaceId, countedOf(row), null);
    }
  }
  // RETURNING order is unspecified: given back in insertion order.
  return rows;
}
