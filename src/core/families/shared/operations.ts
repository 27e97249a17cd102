import { notFound } from '../../errors.js';
import type { VersionedRecord } from '../../model.js';
import { preconditionHolds, versionConflict } from '../../pipeline/conditional.js';
import type { OperationContext } from '../../pipeline/context.js';
import { decodeCursor, decodePosition, invalidCursor, type Page, toPage } from '../../pipeline/pagination.js';
import {
  type CollectionName,
  type CollectionRows,
  type ListQuery,
  type StoredJson,
  VersionMismatch,
} from '../../port/index.js';
import { isSortKeyOf, type SortKey, sortKeyCanChange, sortKeyOf } from '../../sort-keys.js';
import { sortOrder } from './sort.js';

/** What every new record ends with: created and last updated now, at its first version. */
export const firstVersion = (ctx: OperationContext) => ({
  createdAt: ctx.now,
  updatedAt: ctx.now,
  version: 1,
});

/** The resource as the API shows it: everything but the workspace it lives in. */
export function present<Row extends VersionedRecord>(row: Row): Omit<Row, 'workspaceId'> {
  const { workspaceId: _hidden, ...visible } = row;
  return visible;
}

/** Reads a row of the caller's workspace or answers 404 (another tenant's id is not found either). */
export async function getOr404<Name extends CollectionName>(
  ctx: OperationContext,
  name: Name,
  id: string,
  what: string,
): Promise<CollectionRows[Name]> {
  const row = await ctx.tx.collections[name].get(ctx.tenant.workspaceId, id);
  if (!row) throw notFound(what);
  return row as CollectionRows[Name];
}

/**
 * `getOr404`, for a family whose view is `present(row)`, already serialized: the stored text is
 * sent as it is (Collection.getJson) instead of being parsed and serialized again.
 */
export async function getStoredOr404(
  ctx: OperationContext,
  name: CollectionName,
  id: string,
  what: string,
): Promise<StoredJson> {
  const stored = await ctx.tx.collections[name].getJson(ctx.tenant.workspaceId, id);
  if (!stored) throw notFound(what);
  return stored;
}

/** Reads a row for a change, enforcing the request's If-Match: 409 with the current ETag when stale. */
export async function getForWrite<Name extends CollectionName>(
  ctx: OperationContext,
  name: Name,
  id: string,
  what: string,
): Promise<CollectionRows[Name]> {
  const row = await getOr404(ctx, name, id, what);
  if (ctx.precondition && !preconditionHolds(ctx.precondition, row.version))
    throw versionConflict(row.version);
  return row;
}

/** Writes the next version of a row (compare-and-set on the version it was read at). */
export async function saveNextVersion<Name extends CollectionName>(
  ctx: OperationContext,
  name: Name,
  current: CollectionRows[Name],
  changes: Partial<CollectionRows[Name]>,
): Promise<CollectionRows[Name]> {
  const next = { ...current, ...changes, version: current.version + 1, updatedAt: ctx.now };
  try {
    await ctx.tx.collections[name].update(next as never, current.version);
  } catch (error) {
    if (error instanceof VersionMismatch) {
      if (error.current === null) throw notFound();
      throw versionConflict(error.current);
    }
    throw error;
  }
  return next;
}

/** The fields of `changes` whose values differ from `current`'s: a PATCH that changes nothing writes nothing. */
export function changedFields<Row extends object>(current: Row, changes: Partial<Row>): Partial<Row> {
  const out: Partial<Row> = {};
  for (const [field, value] of Object.entries(changes) as [keyof Row, Row[keyof Row]][]) {
    if (value === undefined) continue;
    if (JSON.stringify(current[field]) !== JSON.stringify(value)) out[field] = value;
  }
  return out;
}

export interface ListParams<Name extends CollectionName = CollectionName> {
  limit: number;
  range?: ListQuery<Name>['range'];
  sum?: ListQuery<Name>['sum'];
  cursor?: string | undefined;
  createdAfter?: string | undefined;
  createdBefore?: string | undefined;
  updatedSince?: string | undefined;
  updatedBefore?: string | undefined;
  q?: string | undefined;
  /** Oldest first with `asc`; newest first otherwise. */
  order?: 'asc' | 'desc';
  /** Fields that must be set (an archived item's `archivedAt`). */
  notNull?: ListQuery<Name>['notNull'] | undefined;
  /**
   * The `sort` parameter (`-updatedAt`…): on `createdAt` it is `order`; on another of the
   * collection's sort fields, (that field's key, id).
   */
  sort?: string | undefined;
  /** Issues only: the labels a row must carry. */
  labels?: ListQuery<Name>['labels'];
}

/**
 * One page of a collection in the read envelope, with a cursor bound to these filters; with
 * `sum`, also the sum of that field over every matching row.
 */
export async function listPage<Name extends CollectionName, T>(
  ctx: OperationContext,
  name: Name,
  params: ListParams<Name>,
  where: ListQuery<Name>['where'],
  presentRow: (row: CollectionRows[Name]) => T,
): Promise<Page<T> & { sum?: number }> {
  const { limit, cursor, range, sum, sort: sortParam, order: orderParam, notNull, ...rest } = params;
  const sorted = sortParam === undefined ? null : sortOrder(sortParam);
  const order = sorted?.field === 'createdAt' ? sorted.order : orderParam;
  const sort = sorted && sorted.field !== 'createdAt' ? sorted : null;
  // The order is part of what a cursor is bound to: a position means nothing in another order.
  // Newest first is left out, so cursors made before lists had an order stay valid.
  const filters = {
    name,
    where,
    range,
    ...rest,
    ...(order === 'asc' ? { order } : {}),
    ...(sort ? { sort: sortParam } : {}),
    ...(notNull ? { notNull } : {}),
  };
  const query: ListQuery<Name> = {
    workspaceId: ctx.tenant.workspaceId,
    where,
    limit: limit + 1,
    ...(order === 'asc' ? { order } : {}),
    ...(notNull ? { notNull } : {}),
    ...(range ? { range } : {}),
    ...(sum ? { sum } : {}),
    ...(rest.createdAfter ? { createdAfter: rest.createdAfter } : {}),
    ...(rest.createdBefore ? { createdBefore: rest.createdBefore } : {}),
    ...(rest.updatedSince ? { updatedSince: rest.updatedSince } : {}),
    ...(rest.updatedBefore ? { updatedBefore: rest.updatedBefore } : {}),
    ...(rest.q ? { search: rest.q } : {}),
    ...(rest.labels ? { labels: rest.labels } : {}),
    ...(sort ? { sort: sort as NonNullable<ListQuery<Name>['sort']> } : {}),
    ...(cursor !== undefined && !sort ? { after: decodeCursor(cursor, filters) } : {}),
  };
  // Sorted on a field that changes: the pages after the first leave out rows changed since it
  // was read (the instant its cursor carries on), which may have moved behind the cursor.
  const sortCursor =
    sort && cursor !== undefined ? decodeSortCursor(name, sort.field, cursor, filters) : null;
  const since = sortCursor?.since ?? ctx.now;
  if (sortCursor) {
    query.afterKey = { key: sortCursor.key, id: sortCursor.id };
    // A row whose key never changes (an issue's number) stays where it was: edited, it is still
    // ahead of the cursor and comes once.
    if (sort && sortKeyCanChange(name, sort.field)) query.unchangedSince = since;
  }
  const result = await ctx.tx.collections[name].list(query);
  const rows = result.rows as CollectionRows[Name][];
  const page = sort
    ? toPage(rows, result.total, limit, filters, presentRow, (row) => [
        sortKeyOf(name, sort.field, row),
        row.id,
        since,
      ])
    : toPage(rows, result.total, limit, filters, presentRow);
  return result.sum === undefined ? page : { ...page, sum: result.sum };
}

/**
 * The (sort key, id) position a cursor of a list sorted on `field` names, and when its first page
 * was read; 400 invalid_cursor if none.
 */
function decodeSortCursor(
  name: CollectionName,
  field: string,
  cursor: string,
  filters: unknown,
): { key: SortKey; id: string; since: string } {
  const [key, id, since, extra] = decodePosition(cursor, filters);
  if (
    isSortKeyOf(name, field, key) &&
    typeof id === 'string' &&
    typeof since === 'string' &&
    extra === undefined
  )
    return { key, id, since };
  throw invalidCursor('The cursor is malformed.');
}
