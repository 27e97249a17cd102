import type { CollectionName, ListQuery, ListResult, Tally } from '../../core/port/index.js';
import {
  addNotNull,
  addRanges,
  addTimeBounds,
  pageClauses,
  sumFieldOf,
  type Where,
} from '../shared/collection-clauses.js';
import { columnOf } from '../shared/collection-table.js';
import { narrowedByCounts } from '../shared/ranked-narrowing.js';
import { talliesOf } from '../shared/tally-rows.js';
import { accountOf } from './account-routes.js';
import { type CollectionContext, matching, parseRow, type Row } from './collection-context.js';
import { lockReferenced, predicateLock } from './collection-locks.js';
import { addSearch } from './collection-sql.js';
import {
  isKeptTally,
  keptListTotal,
  keptListTotalParams,
  keptListTotalSql,
  keptLiveTotal,
  keptTallySql,
} from './counts/issue-counts.js';
import { rankedSort, rankedSortParams, rankedSortSql } from './counts/ranked-sort.js';
import { addLabels } from './labels.js';

/** A PostgreSQL collection's counts and pages (collections.ts assembles the store). */

/** Collection.count: under the predicate lock in a write transaction. */
export async function countRows(ctx: CollectionContext, workspaceId: string, where: Where): Promise<number> {
  const { conn, table } = ctx;
  const accountId = await accountOf(conn, workspaceId);
  await lockReferenced(ctx, accountId, workspaceId, where as Where);
  await predicateLock(ctx, accountId, workspaceId, true);
  const conditions = matching(ctx, accountId, workspaceId, where);
  return (
    (await conn.value<number>(
      `SELECT COUNT(*)::int FROM ${table} WHERE ${conditions.sql}`,
      conditions.params,
    )) ?? 0
  );
}

/** Collection.tally: the matching rows grouped by the values of `by`. */
export async function tallyRows(
  ctx: CollectionContext,
  workspaceId: string,
  where: Where,
  by: readonly string[],
): Promise<Tally[]> {
  const { conn, table } = ctx;
  // As count: one snapshot (a read transaction), or under the predicate lock.
  const accountId = await accountOf(conn, workspaceId);
  await conn.consistent();
  await lockReferenced(ctx, accountId, workspaceId, where as Where);
  await predicateLock(ctx, accountId, workspaceId, true);
  // The live issues of an outcome by status and severity, in a read: from the counts the writes
  // keep. A write transaction's own changes to them go with its COMMIT, so it counts the rows.
  if (ctx.name === 'issues' && !conn.writing && isKeptTally(where as Record<string, unknown>, by)) {
    const kept = await conn.rows<Record<string, unknown>>(keptTallySql, [
      accountId,
      workspaceId,
      (where as { outcomeId: string }).outcomeId,
    ]);
    return talliesOf(kept, 2);
  }
  const conditions = matching(ctx, accountId, workspaceId, where);
  const columns = by.map(columnOf);
  const rows = await conn.rows<Record<string, unknown>>(
    `SELECT ${columns.map((c, i) => `${c} AS g${i}, `).join('')}COUNT(*)::int AS n, MAX(updated_at) AS latest ` +
      `FROM ${table} WHERE ${conditions.sql}${columns.length ? ` GROUP BY ${columns.join(', ')}` : ''}`,
    conditions.params,
  );
  return talliesOf(rows, columns.length);
}

/** Collection.list: a page and its total (or sum), of one snapshot or under the predicate lock. */
export async function listRows(
  ctx: CollectionContext,
  asked: ListQuery<CollectionName>,
): Promise<ListResult<Row>> {
  const { conn, name, shape, table } = ctx;
  // A page and its total, of one snapshot (a read transaction), or under the predicate lock.
  const accountId = await accountOf(conn, asked.workspaceId);
  await conn.consistent();
  await predicateLock(ctx, accountId, asked.workspaceId, true);
  const narrowed = await narrowedToRanks(ctx, accountId, asked);
  if (narrowed?.total === 0) return { rows: [], total: 0 };
  const query = narrowed?.query ?? asked;
  const conditions = matching(ctx, accountId, query.workspaceId, query.where as Where);
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
  // The live issues by any of project, status and severity, or by one of them and a
  // label, in a read: the sum of the counts the writes keep (a write transaction's own changes
  // go with its COMMIT).
  const kept =
    name === 'issues' && !conn.writing && narrowed === undefined
      ? keptListTotal(query as ListQuery<'issues'>)
      : null;
  const keptTotal =
    kept === null
      ? undefined
      : async () =>
          (await conn.value<number>(
            keptListTotalSql,
            keptListTotalParams(accountId, query.workspaceId, kept),
          )) ?? 0;
  // Where the matches may be few among the issues the page walks (a label, several filters), the
  // total first: where none match, the page is not walked (a filter many issues pass, probed for
  // a label or another value none of them have, reads every one).
  const keptFirst =
    narrowed?.total ?? (keptTotal !== undefined && kept?.sparse ? await keptTotal() : undefined);
  if (keptFirst === 0) return { rows: [], total: 0 };
  // Sorted by another field: keyset on (its sort key, id), read from its index (migration 15).
  const { after, keyset, orderAndLimit, orderOfSelected, key } = pageClauses(name, query, conditions);
  const rows = (
    await conn.values<string>(
      readsIndexFirst(name, query)
        ? // The page's keys from the index alone, then only their rows (migration 33).
          `SELECT (SELECT d.data FROM ${table} d WHERE d.account_id = $1 AND d.pk = p.pk) ` +
            `FROM (SELECT pk, ${key} AS key, id FROM ${table} WHERE ${where}${keyset} ${orderAndLimit}) p ${orderOfSelected}`
        : `SELECT data FROM ${table} WHERE ${where}${keyset} ${orderAndLimit}`,
      conditions.params,
    )
  ).map(parseRow);

  // A first page shorter than the limit already holds every match; a caller may need no count.
  if (sumField === undefined && (query.withoutTotal || (!after && rows.length < query.limit)))
    return { rows, total: rows.length };
  if (keptFirst !== undefined) return { rows, total: keptFirst };
  if (keptTotal !== undefined) return { rows, total: await keptTotal() };
  // Archived issues with the others (archived=true) by filters whose live total is kept: that
  // total, and the archived matches counted through the index of the archived rows (migration
  // 14), rather than every match counted (0.2 s for the 200,000 open issues of a million).
  const live =
    name === 'issues' && !conn.writing && sumField === undefined
      ? keptLiveTotal(query as ListQuery<'issues'>)
      : null;
  if (live !== null) {
    const liveTotal =
      (await conn.value<number>(keptListTotalSql, keptListTotalParams(accountId, query.workspaceId, live))) ??
      0;
    const archived =
      (await conn.value<number>(
        `SELECT COUNT(*)::int FROM ${table} WHERE ${where} AND archived_at IS NOT NULL`,
        matchParams,
      )) ?? 0;
    return { rows, total: liveTotal + archived };
  }
  const nullField = shape.notNull.find((field) => (query.where as Where)?.[field] === null);
  if (nullField !== undefined && sumField === undefined) {
    // Null asked of a field null in most rows (archivedAt): the matches without that condition
    // (read through the list indexes, as before) less those where it is set (through the
    // index of those rows, migration 13), rather than a check of every match's row.
    const { [nullField]: _null, ...rest } = query.where as Record<string, unknown>;
    const others = (extra: string | null) => {
      const c = matching(ctx, accountId, query.workspaceId, rest as Where);
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
}

/**
 * Sorts whose index carries the columns most filters name, and each row's key (migration 33):
 * null in most issues, so that a filter the issues with a value do not match walks past all of
 * them first. Their page is read as keys from the index, then the rows of those keys alone.
 */
const coveredSorts: Partial<Record<CollectionName, readonly string[]>> = { issues: ['dueOn', 'estimate'] };

const readsIndexFirst = (name: CollectionName, query: ListQuery<CollectionName>): boolean =>
  query.sort !== undefined && (coveredSorts[name]?.includes(query.sort.field) ?? false);

/**
 * Issues sorted by status or severity, in a read: the list narrowed to the sort field's values
 * that have matches, by the kept counts (counts/ranked-sort.ts), with its total; undefined where
 * the counts are not kept or the list lets one value through.
 */
async function narrowedToRanks(
  ctx: CollectionContext,
  accountId: string,
  query: ListQuery<CollectionName>,
): Promise<{ query: ListQuery<CollectionName>; total: number } | undefined> {
  if (ctx.name !== 'issues' || ctx.conn.writing) return undefined;
  const ranked = rankedSort(query as ListQuery<'issues'>);
  if (ranked === null) return undefined;
  const totals =
    (await ctx.conn.value<number[]>(
      rankedSortSql(ranked.kept.length),
      rankedSortParams(accountId, query.workspaceId, ranked),
    )) ?? [];
  return narrowedByCounts(
    query,
    ranked.field,
    ranked.values.map((value, i) => ({ value, total: Math.max(0, totals[i] ?? 0) })),
  );
}
