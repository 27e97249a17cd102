import {
  type Collection,
  type CollectionName,
  type CollectionRows,
  fieldValue,
  type ListQuery,
  UniqueViolation,
  VersionMismatch,
} from '../../core/port/index.js';
import {
  addEquality,
  addNotNull,
  addRanges,
  addTimeBounds,
  pageClauses,
  sumFieldOf,
  type Where,
} from '../shared/collection-clauses.js';
import { columnOf, rowValues } from '../shared/collection-table.js';
import { storedJsonOf } from '../shared/stored-json.js';
import { accountOf } from './account-routes.js';
import { addSearch, postgresDialect, scoped, shapes, uniqueFields, writesOf } from './collection-sql.js';
import { type Conn, type Prepared, prepared } from './connection.js';
import { withUniqueRules } from './errors.js';
import { addLabels, issueLabelWrites } from './labels.js';
import { ensureLockRow, lockExclusive, lockShared, tryLockExclusive } from './tenant-locks.js';
import { type AheadRow, aheadRowKey, predicateKey } from './transaction-memo.js';

/** Filter fields that name a row of another collection, and that collection's table. */
const referencedBy: Readonly<Record<string, string>> = {
  projectId: shapes.projects.table,
  outcomeId: shapes.outcomes.table,
  issueId: shapes.issues.table,
};

/** The by-id reads, prepared (the hot path of every GET by id and every create's references). */
const statementsOf = (() => {
  const made = new Map<
    CollectionName,
    { get: Prepared; getJson: Prepared; getForWrite: Prepared; getToChange: Prepared }
  >();
  return (name: CollectionName) => {
    let statements = made.get(name);
    if (!statements) {
      const where = 'WHERE account_id = $3 AND id = $1 AND workspace_id = $2';
      const get = `SELECT data FROM ${shapes[name].table} ${where}`;
      statements = {
        get: prepared(get),
        getJson: prepared(`SELECT data, version FROM ${shapes[name].table} ${where}`),
        getForWrite: prepared(`${get} FOR KEY SHARE`),
        getToChange: prepared(`${get} FOR NO KEY UPDATE`),
      };
      made.set(name, statements);
    }
    return statements;
  };
})();

/**
 * The stored text of a row without its workspace, cut rather than parsed and serialized again
 * (the GET by id path): the text was made by JSON.stringify of a row whose first keys are its id
 * and workspace, so it begins with exactly these two pairs, and the rest is what JSON.stringify
 * makes of the row without the workspace. Undefined for a text that begins otherwise (the caller
 * parses it then).
 */
export function withoutWorkspace(data: string, id: string, workspaceId: string): string | undefined {
  const head = `{"id":${JSON.stringify(id)},`;
  const workspace = `"workspaceId":${JSON.stringify(workspaceId)},`;
  if (!data.startsWith(head) || !data.startsWith(workspace, head.length)) return undefined;
  return head + data.slice(head.length + workspace.length);
}

/**
 * One collection over its table: the record as JSON, its filter, range and sum fields as columns.
 * Every statement names the account of the workspace (account-routes.ts) before anything else.
 */
export function postgresCollection<Name extends CollectionName>(name: Name, conn: Conn): Collection<Name> {
  type Row = CollectionRows[Name];
  const shape = shapes[name];
  const { table } = shape;
  const { insertSql, updateSql } = writesOf[name];
  const statements = statementsOf(name);
  const parse = (data: string) => JSON.parse(data) as Row;
  /** Conditions whose $1 is the account and $2 the workspace (scoped). */
  const matching = (accountId: string, workspaceId: string, where: Where) => {
    const conditions = scoped(accountId, workspaceId);
    addEquality(shape, where, conditions);
    return conditions;
  };

  /** Which unique rule an insert that inserted nothing ran into. */
  async function clashOf(accountId: string, row: Row): Promise<UniqueViolation> {
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

  /** A read transaction's row as stored: the one its token's grant read ahead (tenancy.ts), once, or read now. */
  const readJson = async (workspaceId: string, id: string): Promise<AheadRow | null> => {
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
  };
  const getRow = async (workspaceId: string, id: string): Promise<Row | null> => {
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
    const row = parse(data);
    if (conn.writing) {
      // Every version it read: a row read twice (a rule re-reads what the request read first) may
      // have changed between the reads, and an update from either read lost a race.
      const seen = conn.memo.readVersions.get(readKey(row.id));
      conn.memo.readVersions.set(readKey(row.id), seen ? [...seen, row.version] : [row.version]);
      if (name === 'issues') conn.memo.issueLabels.set(row.id, labelsOf(row));
    }
    return row;
  };
  const readKey = (id: string) => `${table}\u0000${id}`;
  const labelsOf = (row: Row): readonly string[] =>
    name === 'issues' ? ((row as { labels?: readonly string[] }).labels ?? []) : [];
  /** The statements that add a new issue's labels (none for other collections). */
  const labelsAdded = (accountId: string, row: Row) =>
    name === 'issues' ? issueLabelWrites.added(accountId, row.workspaceId, row.id, labelsOf(row)) : [];
  /** A row read ahead and not taken yet is stale once the transaction writes it (or, without an id, any of the table's). */
  const forgetAhead = (workspaceId: string, id?: string) => {
    if (id !== undefined) {
      conn.memo.aheadRows.delete(aheadRowKey(table, workspaceId, id));
      return;
    }
    const prefix = aheadRowKey(table, workspaceId, '');
    for (const key of conn.memo.aheadRows.keys()) if (key.startsWith(prefix)) conn.memo.aheadRows.delete(key);
  };

  /**
   * Before counting (or deleting) the rows of a write transaction that refer to a row: that row,
   * locked FOR UPDATE in a statement of its own. A transaction creating a referrer holds FOR KEY
   * SHARE on it (getRow) until it commits, so once the lock is held the count, a statement
   * begun after, sees every referrer; and no referrer is created until this transaction ends.
   */
  async function lockReferenced(accountId: string, workspaceId: string, where: Where): Promise<void> {
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
  async function predicateLock(accountId: string, workspaceId: string, exclusive: boolean): Promise<void> {
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

  /**
   * An issue's update with its labels kept: when the transaction read the issue (as every update
   * does first), only a change of labels costs statements, sent once the update succeeded; else
   * the stale ones go before the update, read from the stored text, and the new ones after.
   */
  async function updateIssue(
    accountId: string,
    row: Row,
    update: { sql: string; params: unknown[] },
  ): Promise<number> {
    const labels = labelsOf(row);
    const before = conn.memo.issueLabels.get(row.id);
    if (before === undefined) {
      const around = issueLabelWrites.updated(accountId, row.workspaceId, row.id, labels);
      const results = await conn.batch([...around.before, update, ...around.after]);
      conn.memo.issueLabels.set(row.id, labels);
      return results[around.before.length]?.rowCount ?? 0;
    }
    const changed = await conn.run(update.sql, update.params);
    if (changed !== 1) return changed;
    conn.memo.issueLabels.set(row.id, labels);
    const removed = before.filter((label) => !labels.includes(label));
    const added = labels.filter((label) => !before.includes(label));
    const writes = [
      ...(removed.length === 0
        ? []
        : [issueLabelWrites.removed(accountId, row.workspaceId, row.id, removed)]),
      ...issueLabelWrites.added(accountId, row.workspaceId, row.id, added),
    ];
    if (writes.length > 0) await conn.batch(writes);
    return changed;
  }

  return {
    async insert(row, json) {
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
            if (inserted === 0) throw await clashOf(accountId, row);
          },
          after: labelsAdded(accountId, row),
        });
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
            if (inserted === 0) throw await clashOf(accountId, row);
          },
          after: labelsAdded(accountId, row),
        });
        return;
      }
      await predicateLock(accountId, row.workspaceId, false);
      const inserted = await conn.run(insertSql, params);
      if (inserted === 0) throw await clashOf(accountId, row);
      const labels = labelsAdded(accountId, row);
      if (labels.length > 0) await conn.batch(labels);
    },
    get: getRow,
    async getJson(workspaceId, id) {
      // A write transaction remembers the version it read (getRow); a read gets the text cut.
      if (conn.writing) {
        const row = await getRow(workspaceId, id);
        return row === null ? null : storedJsonOf(row);
      }
      const stored = await readJson(workspaceId, id);
      if (stored === null) return null;
      return {
        json: withoutWorkspace(stored.data, id, workspaceId) ?? storedJsonOf(parse(stored.data)).json,
        version: stored.version,
      };
    },
    async findOne(workspaceId, where) {
      // The relation graph of a workspace is checked (a relation that exists already, from either
      // end; a cycle; a second parent) and then written to: a write transaction's first look at it
      // takes its predicate lock exclusive, so concurrent relation writes of one workspace queue
      // and each sees the relations committed before it (see the lock audit).
      const accountId = await accountOf(conn, workspaceId);
      if (name === 'issueRelations') await predicateLock(accountId, workspaceId, true);
      const conditions = matching(accountId, workspaceId, where);
      const data = await conn.value<string>(
        `SELECT data FROM ${table} WHERE ${conditions.sql} ORDER BY pk LIMIT 1`,
        conditions.params,
      );
      return data === undefined ? null : parse(data);
    },
    async update(row, expectedVersion) {
      forgetAhead(row.workspaceId, row.id);
      const accountId = await accountOf(conn, row.workspaceId);
      const update = {
        sql: updateSql,
        params: [
          ...rowValues(shape, postgresDialect, row),
          row.id,
          row.workspaceId,
          expectedVersion,
          accountId,
        ],
      };
      const changed = await withUniqueRules(shape.uniqueRules, () =>
        name === 'issues' ? updateIssue(accountId, row, update) : conn.run(update.sql, update.params),
      );
      if (changed === 1) return;
      const current = await conn.value<number>(
        `SELECT version FROM ${table} WHERE account_id = $3 AND id = $1 AND workspace_id = $2`,
        [row.id, row.workspaceId, accountId],
      );
      // The version this transaction read changed under it: a lost race, not a stale request.
      const read = conn.memo.readVersions.get(readKey(row.id));
      if (conn.writing && read?.includes(expectedVersion))
        throw conn.deadlocked(`${name}: ${row.id} changed after this transaction read it (run again)`);
      throw new VersionMismatch(current ?? null);
    },
    async delete(workspaceId, id) {
      forgetAhead(workspaceId, id);
      const accountId = await accountOf(conn, workspaceId);
      const remove = {
        sql: `DELETE FROM ${table} WHERE account_id = $3 AND id = $1 AND workspace_id = $2`,
        params: [id, workspaceId, accountId],
      };
      if (name !== 'issues') return (await conn.run(remove.sql, remove.params)) > 0;
      conn.memo.issueLabels.delete(id);
      const [, deleted] = await conn.batch([issueLabelWrites.deleted(accountId, workspaceId, id), remove]);
      return (deleted?.rowCount ?? 0) > 0;
    },
    async deleteWhere(workspaceId, where) {
      forgetAhead(workspaceId);
      const accountId = await accountOf(conn, workspaceId);
      await lockReferenced(accountId, workspaceId, where as Where);
      await predicateLock(accountId, workspaceId, true);
      const conditions = matching(accountId, workspaceId, where);
      const deleted = await conn.rows<{ pk: number; data: string }>(
        `DELETE FROM ${table} WHERE ${conditions.sql} RETURNING pk, data`,
        conditions.params,
      );
      if (name === 'issues' && deleted.length > 0) {
        const labels = issueLabelWrites.deletedRows(accountId, workspaceId, deleted);
        await conn.run(labels.sql, labels.params);
      }
      // RETURNING order is unspecified: give them back in insertion order.
      return deleted.sort((a, b) => a.pk - b.pk).map((row) => parse(row.data));
    },
    async count(workspaceId, where) {
      const accountId = await accountOf(conn, workspaceId);
      await lockReferenced(accountId, workspaceId, where as Where);
      await predicateLock(accountId, workspaceId, true);
      const conditions = matching(accountId, workspaceId, where);
      return (
        (await conn.value<number>(
          `SELECT COUNT(*)::int FROM ${table} WHERE ${conditions.sql}`,
          conditions.params,
        )) ?? 0
      );
    },
    async tally(workspaceId, where, by) {
      // As count: one snapshot (a read transaction), or under the predicate lock.
      const accountId = await accountOf(conn, workspaceId);
      await conn.consistent();
      await lockReferenced(accountId, workspaceId, where as Where);
      await predicateLock(accountId, workspaceId, true);
      const conditions = matching(accountId, workspaceId, where);
      const columns = by.map(columnOf);
      const rows = await conn.rows<Record<string, unknown>>(
        `SELECT ${columns.map((c, i) => `${c} AS g${i}, `).join('')}COUNT(*)::int AS n, MAX(updated_at) AS latest ` +
          `FROM ${table} WHERE ${conditions.sql}${columns.length ? ` GROUP BY ${columns.join(', ')}` : ''}`,
        conditions.params,
      );
      return rows
        .filter((row) => (row.n as number) > 0)
        .map((row) => ({
          values: columns.map((_, i) => row[`g${i}`] ?? null),
          count: row.n as number,
          latestUpdatedAt: row.latest as string,
        }));
    },
    async list(query: ListQuery<Name>) {
      // A page and its total, of one snapshot (a read transaction), or under the predicate lock.
      const accountId = await accountOf(conn, query.workspaceId);
      await conn.consistent();
      await predicateLock(accountId, query.workspaceId, true);
      const conditions = matching(accountId, query.workspaceId, query.where as Where);
      addRanges(shape, query.range, conditions);
      addTimeBounds(query, conditions);
      if (query.search !== undefined) addSearch(shape, query.search, conditions);
      addNotNull(query, conditions);
      const labels = query.labels;
      if (labels && name !== 'issues') throw new Error(`${name}: has no labels to filter on`);
      // The account and the workspace are the first parameters of every list's conditions (scoped).
      if (labels) addLabels('$1', '$2', labels, conditions);
      const where = conditions.sql;
      const matchParams = [...conditions.params];
      const sumField = sumFieldOf(shape, query);
      // Sorted by another field: keyset on (its sort key, id), read from its index (migration 15).
      const { after, keyset, orderAndLimit } = pageClauses(name, query, conditions);
      const rows = (
        await conn.values<string>(
          `SELECT data FROM ${table} WHERE ${where}${keyset} ${orderAndLimit}`,
          conditions.params,
        )
      ).map(parse);

      // A first page shorter than the limit already holds every match; a caller may need no count. a caller may need no count.
      if (sumField === undefined && (query.withoutTotal || (!after && rows.length < query.limit)))
        return { rows, total: rows.length };
      const nullField = shape.notNull.find((field) => (query.where as Where)?.[field] === null);
      if (nullField !== undefined && sumField === undefined) {
        // Null asked of a field null in most rows (archivedAt): the matches without that condition
        // (read through the list indexes, as before) less those where it is set (through the
        // index of those rows, migration 13), rather than a check of every match's row.
        const { [nullField]: _null, ...rest } = query.where as Record<string, unknown>;
        const others = (extra: string | null) => {
          const c = matching(accountId, query.workspaceId, rest as Where);
          addRanges(shape, query.range, c);
          addTimeBounds(query, c);
          if (query.search !== undefined) addSearch(shape, query.search, c);
          if (labels) addLabels('$1', '$2', labels, c);
          if (extra) c.clauses.push(extra);
          return c;
        };
        const all = others(null);
        const set = others(`${columnOf(nullField)} IS NOT NULL`);
        // Both counts take the same parameters: the second only adds a clause without one.
        const counts = await conn.row<{ total: number }>(
          `SELECT (SELECT COUNT(*) FROM ${table} WHERE ${all.sql})::int - ` +
            `(SELECT COUNT(*) FROM ${table} WHERE ${set.sql})::int AS total`,
          all.params,
        );
        return { rows, total: counts?.total ?? 0 };
      }
      const totals = await conn.row<{ total: number; sum: number | null }>(
        `SELECT COUNT(*)::int AS total, ${sumField ? `COALESCE(SUM(${columnOf(sumField)}), 0)::float8` : 'NULL'} AS sum ` +
          `FROM ${table} WHERE ${where}`,
        matchParams,
      );
      const total = totals?.total ?? 0;
      return sumField === undefined ? { rows, total } : { rows, total, sum: totals?.sum ?? 0 };
    },
  };
}
