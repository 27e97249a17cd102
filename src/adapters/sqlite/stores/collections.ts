import {
  type Collection,
  type CollectionName,
  type CollectionRows,
  type FilterMatch,
  type FilterValue,
  fieldValue,
  type LabelMatch,
  type ListQuery,
  type ListResult,
  VersionMismatch,
} from '../../../core/port/index.js';
import {
  addEquality,
  addNotNull,
  addRanges,
  addTimeBounds,
  isRanged,
  pageClauses,
  sumFieldOf,
  type Where,
} from '../../shared/collection-clauses.js';
import { type CollectionTable, columnOf, rowValues } from '../../shared/collection-table.js';
import { narrowedByCounts, rankedValues } from '../../shared/ranked-narrowing.js';
import { talliesOf } from '../../shared/tally-rows.js';
import type { Conn } from '../engine/types.js';
import { countedColumns as firstCounted } from '../migrations/002_list_counts.js';
import { searchedFields } from '../migrations/005_batched_search.js';
import { commentCountedColumns } from '../migrations/014_comments.js';
import { relationCountedColumns } from '../migrations/015_issue_relations.js';
import { tallyIndexes } from '../migrations/024_outcome_tallies.js';
import { countedPairs, pairField, sharedColumns } from '../migrations/026_pair_and_label_counts.js';
import { triple } from '../migrations/028_triple_counts.js';
import { addSearch, scoped, shapes, sqliteDialect } from './collection-sql.js';
import { addLabels, carriesLabel, insertLabels, labelKeyCount } from './labels.js';
import { manyInRange } from './sorted-ranges.js';
import { withUniqueRules } from './unique-rules.js';

/** The filter columns of each table counted in list_counts (migrations 2, 14 and 15). */
const countedColumns: Readonly<Record<string, readonly string[]>> = {
  ...firstCounted,
  ...commentCountedColumns,
  ...relationCountedColumns,
};

/** A value as the counts key it (the counting triggers too): NULL is char(0), which no filter value holds. */
const countedValue = (value: unknown): string =>
  value === null || value === undefined ? '\u0000' : String(value);

/**
 * The key of the maintained count equal to the number of rows matching `where` (at most one
 * equality, on a counted column), or null when the rows must be counted.
 */
function countKey(table: string, where: Where): { field: string; values: string[]; not: boolean } | null {
  const entries = Object.entries(where ?? {}).filter(
    // None of an empty list leaves every row: no filter.
    ([, value]) => value !== undefined && !(isNoneOf(value) && value.not.length === 0),
  );
  if (entries.length === 0) return { field: '', values: [''], not: false };
  const [entry, second] = entries;
  if (table === 'issues' && entries.length === 2 && entry && second) return pairKey(entry, second);
  if (table === 'issues' && entries.length === 3)
    return tripleKey(entries as [string, FilterMatch | undefined][]);
  if (entries.length > 1 || !entry) return null;
  const column = columnOf(entry[0]);
  if (!countedColumns[table]?.includes(column)) return null;
  const value = entry[1] as FilterMatch;
  // Any of a list: the sum of its values' counts; none of a list: all the rows less that sum
  // (a null field is none of the values, and is in the count of all the rows).
  if (Array.isArray(value))
    return { field: column, values: [...new Set(value.map(countedValue))], not: false };
  if (isNoneOf(value)) return { field: column, values: [...new Set(value.not.map(countedValue))], not: true };
  return { field: column, values: [countedValue(value)], not: false };
}

/**
 * The key of the kept count of two equality filters on a counted pair of issue columns
 * (migration 26).
 */
function pairKey(
  ...filters: [string, FilterMatch | undefined][]
): { field: string; values: string[]; not: boolean } | null {
  const byColumn = new Map(filters.map(([field, value]) => [columnOf(field), value]));
  const pair = countedPairs.find(([a, b]) => byColumn.has(a) && byColumn.has(b));
  return pair ? combinationKey(pair, pairField(pair), byColumn) : null;
}

/** The key of the kept count of equality filters on project, status and severity at once (migration 28). */
function tripleKey(filters: [string, FilterMatch | undefined][]): {
  field: string;
  values: string[];
  not: boolean;
} | null {
  const byColumn = new Map(filters.map(([field, value]) => [columnOf(field), value]));
  return combinationKey(triple.columns, triple.field, byColumn);
}

/**
 * The key of the kept count of equality filters on `columns` together (field `field`, their
 * values joined by char(31)): each one value or any of a list, summed over every combination of
 * their values; null where a column is not filtered or is filtered by none of a list.
 */
function combinationKey(
  columns: readonly string[],
  field: string,
  byColumn: ReadonlyMap<string, FilterMatch | undefined>,
): { field: string; values: string[]; not: boolean } | null {
  let combinations: string[][] = [[]];
  for (const column of columns) {
    const value = byColumn.get(column);
    if (value === undefined || isNoneOf(value)) return null;
    const listed = [...new Set((Array.isArray(value) ? value : [value]).map(countedValue))];
    combinations = combinations.flatMap((head) => listed.map((v) => [...head, v]));
  }
  return { field, values: combinations.map((values) => values.join('\u001f')), not: false };
}

const isNoneOf = (value: FilterMatch | undefined): value is { not: readonly FilterValue[] } =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * For `updatedSince`, the index by update time of a table that has one (migration 17's, which
 * replaced migration 11's in migration 25), and its index in creation order that carries the
 * update time (migration 8).
 */
const updatedIndexes: Partial<Record<string, { updated: string; ordered: string }>> = {
  issues: { updated: 'issues_sorted_updated', ordered: 'issues_recent' },
};

/**
 * At most this many rows changed since `updatedSince`: they are counted, read and sorted from the
 * index by update time (a few milliseconds at most). Beyond, rows are walked in creation order
 * until the page is full (the fewer steps the more rows match) and counted as before migration 11.
 */
const sortedUpdatesAtMost = 2_000;

const countSql =
  'SELECT n FROM list_counts WHERE collection = ? AND workspace_id = ? AND field = ? AND value = ?';

/** How many index entries a walk reads for the cost of reading one row by its key and sorting it. */
const walkedEntriesPerKeyRead = 16;
/** A search with more matches than this walks the workspace (see searchSource). */
const maxMatchesCounted = 4096;

/**
 * With equality filters on two or more counted columns, the list index of the one that the
 * fewest rows match, as the maintained counts say (one lookup each), for `INDEXED BY`; else
 * null. SQLite keeps no statistics here, so it cannot tell `project_id = ?` (90% of the rows,
 * say) from `status = ?` (20%) and takes the first index that fits: a total then walks the
 * larger run. Every counted column has a list index `<table>_by_<column>` (migrations 1, 7, 8).
 */
function narrowestIndex(conn: Conn, table: string, workspaceId: string, where: Where): string | null {
  const filters = indexedFilters(table, where);
  // One filter: SQLite takes its own index (with `updatedSince` it may take the index by update
  // time instead, which list() rules on: walkedInCreationOrder), and no count is looked up.
  if (filters.length < 2) return null;
  let narrowest = { column: '', rows: Number.POSITIVE_INFINITY };
  for (const { column, value } of filters) {
    const rows = conn.value<number>(countSql, [table, workspaceId, column, value]) ?? 0;
    if (rows < narrowest.rows) narrowest = { column, rows };
  }
  return `${table}_by_${narrowest.column}`;
}

/**
 * The index a list changed since a time walks when many rows changed, where `source` (or a search
 * matching many rows) left the choice to SQLite: the index of the one counted filter (the others
 * are checked in each row), or else the index in creation order.
 */
function walkedInCreationOrder(table: string, where: Where, byUpdate: { ordered: string }): string {
  const indexed = indexedFilters(table, where);
  const [only] = indexed;
  return `${table} INDEXED BY ${only !== undefined && indexed.length === 1 ? `${table}_by_${only.column}` : byUpdate.ordered}`;
}

/** The equality filters on counted columns, each of which has a list index `<table>_by_<column>`. */
function indexedFilters(table: string, where: Where): { column: string; value: string }[] {
  return (
    Object.entries(where ?? {})
      // `IS NULL` cannot read a partial index; no API filter asks for it.
      // A list (any of, none of) is no one value: its rows are found in the index SQLite picks.
      .filter(([, value]) => value !== undefined && value !== null && typeof value !== 'object')
      .map(([field, value]) => ({ column: columnOf(field), value: String(value) }))
      .filter(({ column }) => countedColumns[table]?.includes(column))
  );
}

/**
 * What an insert adds besides the row (migration 6): one more in each count the row falls in,
 * and, for a searched table, a note that the search index lacks it. Not triggers, so that the
 * row's INSERT needs no statement journal; and kept for the end of the write group (see
 * engine/deferred-bookkeeping.ts), where thirty creates add to the same few counts once.
 */
function insertBookkeeping(shape: CollectionTable) {
  const { table } = shape;
  const counted = (countedColumns[table] ?? []).map((column) => {
    const field = shape.columns.find((c) => c.column === column)?.field;
    if (!field) throw new Error(`${table}.${column} is counted but not a column of the collection`);
    return { column, field };
  });
  // Issues are counted by groups of columns too, each group's values joined by char(31): the
  // pairs (migration 26) and all three (migration 28).
  const groups =
    table === 'issues'
      ? [...countedPairs.map((pair) => ({ columns: pair, field: pairField(pair) })), triple]
      : [];
  const columns = [...counted.map(({ column }) => column), ...groups.map(({ field }) => field)];
  const searched = table in searchedFields;
  return (conn: Conn, row: Record<string, unknown> & { workspaceId: string }, pk: number) =>
    conn.defer((bookkeeping) => {
      const single = counted.map(({ field }) => countedValue(fieldValue(row, field)));
      const byColumn = new Map(counted.map(({ column }, i) => [column, single[i]]));
      const values = [
        ...single,
        ...groups.map((group) => group.columns.map((column) => byColumn.get(column)).join('\u001f')),
      ];
      bookkeeping.countListedRow({ collection: table, workspaceId: row.workspaceId, columns, values });
      if (searched) bookkeeping.noteSearch(table, pk);
    });
}

/** The issue fields of the columns a label's issues are counted by (migration 26), in their order. */
const sharedFields = sharedColumns.map((column) => {
  const field = shapes.issues.columns.find((c) => c.column === column)?.field;
  if (!field) throw new Error(`issues.${column} is counted by label but not a column of issues`);
  return field;
});

const bookkeepingOf = Object.fromEntries(
  Object.entries(shapes).map(([name, shape]) => [name, insertBookkeeping(shape)]),
) as Record<CollectionName, ReturnType<typeof insertBookkeeping>>;

/**
 * The statements by key of each table, made once: a statement text built anew at each call is a
 * new string, which the statement cache hashes anew at each lookup.
 */
const byKeySqlOf = Object.fromEntries(
  Object.entries(shapes).map(([name, { table }]) => [
    name,
    {
      get: `SELECT data FROM ${table} WHERE id = ? AND workspace_id = ?`,
      getJson: `SELECT json_remove(data, '$.workspaceId') AS json, version FROM ${table} WHERE id = ? AND workspace_id = ?`,
      version: `SELECT version FROM ${table} WHERE id = ? AND workspace_id = ?`,
      delete: `DELETE FROM ${table} WHERE id = ? AND workspace_id = ?`,
    },
  ]),
) as Record<CollectionName, { get: string; getJson: string; version: string; delete: string }>;

/**
 * What a collection's methods read through `this`. A transaction builds one collection object per
 * collection, so the methods are shared functions rather than closures made anew for each: a
 * create's transaction made about ninety of them, a seventh of what a request allocates.
 */
interface CollectionState {
  readonly name: CollectionName;
  readonly shape: CollectionTable;
  readonly conn: Conn;
  /** Writes the rows this transaction changed to the search index, so that a search sees them. */
  readonly writePendingSearch: () => void;
}

type Row = CollectionRows[CollectionName];

const parse = (data: string) => JSON.parse(data) as Row;

/** The number of rows matching `where`: a maintained count when there is one, else COUNT(*). */
function countMatching(state: CollectionState, workspaceId: string, where: Where, from?: string): number {
  const { conn, shape } = state;
  // Null asked of a field null in most rows (archivedAt): the matches of the other filters less
  // the rows among them where it is set, found through the index of those rows (migration 16).
  const nullField = shape.notNull.find((field) => where?.[field] === null);
  if (nullField !== undefined) {
    const { [nullField]: _null, ...rest } = where ?? {};
    const set = matching(shape, workspaceId, rest);
    set.clauses.push(`${columnOf(nullField)} IS NOT NULL`);
    const among =
      conn.value<number>(
        `SELECT COUNT(*) FROM ${shape.table} INDEXED BY ${shape.table}_archived WHERE ${set.clauses.join(' AND ')}`,
        set.params,
      ) ?? 0;
    return countMatching(state, workspaceId, rest) - among;
  }
  const counted = countKey(shape.table, where);
  if (counted) {
    const countOf = (field: string, value: string) =>
      conn.value<number>(countSql, [shape.table, workspaceId, field, value]) ?? 0;
    const sum = counted.values.reduce((n, value) => n + countOf(counted.field, value), 0);
    return counted.not ? countOf('', '') - sum : sum;
  }
  const { clauses, params } = matching(shape, workspaceId, where);
  const read = from ?? source(state, workspaceId, where, false);
  return conn.value<number>(`SELECT COUNT(*) FROM ${read} WHERE ${clauses.join(' AND ')}`, params) ?? 0;
}

/**
 * Issues sorted by status or severity with filters the kept counts cover (one of project, status
 * and severity besides the sort field, or one label, migration 26): the sort field narrowed to
 * its values that
 * have matches, so that the page reads only their ranks of the sort's index. Sorted by `-status`
 * in a project whose issues are all open, it would otherwise walk every closed, resolved and
 * blocked issue of the workspace first. Undefined where the counts do not cover the filters or
 * the list lets one value through (its filter already narrows the page to that value's ranks).
 */
function narrowedToRanks(
  state: CollectionState,
  query: ListQuery<CollectionName>,
): { query: ListQuery<CollectionName>; total: number } | undefined {
  const ranked = rankedValues(state.name, query);
  if (ranked === undefined) return undefined;
  const { field, values } = ranked;
  const where = (query.where ?? {}) as Record<string, FilterMatch | undefined>;
  // The counts cover the other filters with one value of the sort field (archivedAt null aside:
  // countMatching takes the few archived rows off through their index), or one label with it
  // (issue_label_field_counts, through keptLabelTotal).
  const totalWith = (value: string): number | null => {
    const narrowed = { ...where, [field]: value };
    if (query.labels !== undefined) return keptLabelTotal(state, { ...query, where: narrowed }, query.labels);
    const { archivedAt: _archived, ...others } = narrowed;
    return countKey(state.shape.table, others) === null
      ? null
      : countMatching(state, query.workspaceId, narrowed);
  };
  const counted: { value: string; total: number }[] = [];
  for (const value of values) {
    const total = totalWith(value);
    if (total === null) return undefined;
    counted.push({ value, total });
  }
  return narrowedByCounts(query, field, counted);
}

/**
 * The table, read through the narrowest filter's index where there are several. Not with a
 * search or a range bound (a time entry's `date`): the search index or the range's own index
 * may match far fewer rows, and the counts cannot tell.
 */
function source({ conn, shape }: CollectionState, workspaceId: string, where: Where, otherBounds: boolean) {
  const index = otherBounds ? null : narrowestIndex(conn, shape.table, workspaceId, where);
  return index ? `${shape.table} INDEXED BY ${index}` : shape.table;
}

/**
 * What a search reads. SQLite walks the workspace's rows newest first and checks each key
 * against the search index's matches, which ends early when matches are many, but goes through
 * every row of the workspace for a rare word (about 150 ms at a million issues). When the index
 * names far fewer rows than the workspace holds, the rows it names are read by key and sorted
 * instead (`NOT INDEXED` leaves SQLite the primary key only). Reading a row by key and sorting
 * it costs about as much as walking sixteen index entries: hence the factor. The matches are
 * counted only up to a bound, since the search itself then finds them all again: a common word
 * costs at most that many more matches to decide.
 */
function searchSource(state: CollectionState, workspaceId: string, phrase: string) {
  const { table } = state.shape;
  const rows = countMatching(state, workspaceId, undefined);
  const cap = Math.min(Math.floor(rows / walkedEntriesPerKeyRead), maxMatchesCounted);
  if (cap === 0) return table;
  const matches =
    state.conn.value<number>(
      `SELECT COUNT(*) FROM (SELECT 1 FROM ${table}_search WHERE ${table}_search MATCH ? LIMIT ?)`,
      [phrase, cap],
    ) ?? 0;
  return matches < cap ? `${table} NOT INDEXED` : table;
}

function matching(shape: CollectionTable, workspaceId: string, where: Where) {
  const conditions = scoped(workspaceId);
  addEquality(shape, where, conditions);
  return conditions;
}

async function insert(this: CollectionState, row: Row, json?: string): Promise<void> {
  const { conn, shape } = this;
  const pk = withUniqueRules(shape.uniqueRules, () =>
    conn.insert(shape.insertSql, [row.id, row.workspaceId, ...rowValues(shape, sqliteDialect, row, json)]),
  );
  bookkeepingOf[this.name](conn, row as unknown as Record<string, unknown> & { workspaceId: string }, pk);
  if (this.name === 'issues') {
    const issue = row as unknown as Record<string, unknown> & { labels: string[] };
    insertLabels(
      conn,
      row.workspaceId,
      pk,
      issue.labels,
      sharedFields.map((field) => fieldValue(issue, field) ?? null),
    );
  }
}

async function get(this: CollectionState, workspaceId: string, id: string): Promise<Row | null> {
  // Kept for the rest of the transaction (engine/read-cache.ts): a group's creates name few projects.
  const data = this.conn.keptValue<string>(tablesOf[this.name], byKeySqlOf[this.name].get, [id, workspaceId]);
  return data === undefined ? null : parse(data);
}

async function getJson(this: CollectionState, workspaceId: string, id: string) {
  // json_remove copies the rest of the stored text as it is: the stored text was made by
  // JSON.stringify, so the result is what JSON.stringify makes of the row without the key.
  const row = this.conn.row<{ json: string; version: number }>(byKeySqlOf[this.name].getJson, [
    id,
    workspaceId,
  ]);
  return row ?? null;
}

async function findOne(this: CollectionState, workspaceId: string, where: Where): Promise<Row | null> {
  const { clauses, params } = matching(this.shape, workspaceId, where);
  const data = this.conn.value<string>(
    `SELECT data FROM ${this.shape.table} WHERE ${clauses.join(' AND ')} ORDER BY pk LIMIT 1`,
    params,
  );
  return data === undefined ? null : parse(data);
}

async function update(this: CollectionState, row: Row, expectedVersion: number): Promise<void> {
  const { conn, shape } = this;
  const changed = withUniqueRules(shape.uniqueRules, () =>
    conn.run(shape.updateSql, [
      ...rowValues(shape, sqliteDialect, row),
      row.id,
      row.workspaceId,
      expectedVersion,
    ]),
  );
  if (changed === 1) return;
  const current = conn.value<number>(byKeySqlOf[this.name].version, [row.id, row.workspaceId]);
  throw new VersionMismatch(current ?? null);
}

async function remove(this: CollectionState, workspaceId: string, id: string): Promise<boolean> {
  return this.conn.run(byKeySqlOf[this.name].delete, [id, workspaceId]) > 0;
}

async function deleteWhere(this: CollectionState, workspaceId: string, where: Where): Promise<Row[]> {
  const { clauses, params } = matching(this.shape, workspaceId, where);
  const deleted = this.conn.rows<{ pk: number; data: string }>(
    `DELETE FROM ${this.shape.table} WHERE ${clauses.join(' AND ')} RETURNING pk, data`,
    params,
  );
  // RETURNING order is unspecified: give them back in insertion order.
  return deleted.sort((a, b) => a.pk - b.pk).map((row) => parse(row.data));
}

async function count(this: CollectionState, workspaceId: string, where: Where): Promise<number> {
  return countMatching(this, workspaceId, where);
}

/**
 * The index a tally filtered on `column` alone reads: one in the order it groups by, of the live
 * rows, when migration 24 made one and the tally counts live rows only (it then groups as it
 * walks); else the column's list index.
 */
function tallyIndexOf(table: string, column: string, where: Where, by: readonly string[]): string {
  const grouped = tallyIndexes[table];
  const fits =
    grouped !== undefined &&
    grouped.column === column &&
    (where as Record<string, unknown> | undefined)?.archivedAt === null &&
    by.every((name, i) => grouped.by[i] === name);
  return fits ? `${table}_tally_by_${column}` : `${table}_by_${column}`;
}

async function tally(this: CollectionState, workspaceId: string, where: Where, by: readonly string[]) {
  const { clauses, params } = matching(this.shape, workspaceId, where);
  const columns = by.map(columnOf);
  // The one equality filter's own list index: left to itself, SQLite walks the index ordered by
  // the grouped column (the workspace's every row) to spare a sort of the few groups.
  const indexed = indexedFilters(this.shape.table, where);
  const [only] = indexed;
  const read =
    only !== undefined && indexed.length === 1
      ? `${this.shape.table} INDEXED BY ${tallyIndexOf(this.shape.table, only.column, where, columns)}`
      : source(this, workspaceId, where, false);
  const rows = this.conn.rows<Record<string, unknown>>(
    `SELECT ${columns.map((c, i) => `${c} AS g${i}`).join(', ')}${columns.length ? ', ' : ''}` +
      `COUNT(*) AS n, MAX(updated_at) AS latest FROM ${read} ` +
      `WHERE ${clauses.join(' AND ')}${columns.length ? ` GROUP BY ${columns.join(', ')}` : ''}`,
    params,
  );
  return talliesOf(rows, columns.length);
}

async function list(this: CollectionState, asked: ListQuery<CollectionName>): Promise<ListResult<Row>> {
  const { conn, shape, name } = this;
  const narrowed = onlyEqualityOf(asked) ? narrowedToRanks(this, asked) : undefined;
  if (narrowed?.total === 0) return { rows: [], total: 0 };
  const query = narrowed?.query ?? asked;
  const conditions = matching(shape, query.workspaceId, query.where as Where);
  addRanges(shape, query.range, conditions);
  addTimeBounds(query, conditions);
  addNotNull(query, conditions);
  let phrase: string | null = null;
  if (query.search !== undefined) {
    this.writePendingSearch();
    phrase = addSearch(shape, query.search, conditions);
  }
  const labels = query.labels;
  if (labels && name !== 'issues') throw new Error(`${name}: has no labels to filter on`);
  // Labels carried by few issues: those are read by key and sorted, as a rare word's (searchSource).
  const labelled =
    labels &&
    addLabels(
      conn,
      query.workspaceId,
      labels,
      conditions,
      Math.min(
        Math.floor(countMatching(this, query.workspaceId, undefined) / walkedEntriesPerKeyRead),
        maxMatchesCounted,
      ),
    );
  const where = conditions.sql;
  const params = [...conditions.params];
  const ranged = isRanged(query);
  const sumField = sumFieldOf(shape, query);
  const onlyEquality = sumField === undefined && onlyEqualityOf(query);
  // Labels with at most one shared filter: a kept total (migration 26). None matching means no
  // page to look for: the walk of the filter's index, probing each row for the label, read all
  // 200,000 open issues for `labels=x&status=open` with no open issue carrying x (0.8 s).
  const keptTotal = labels && onlyEquality ? keptLabelTotal(this, query, labels) : null;
  if (keptTotal === 0) return { rows: [], total: 0 };
  // Several filters the kept counts cover together (a pair, all three): the total first, and
  // where none match no page is walked (the walk of one filter's index, checking each row for
  // the others, read the 180,000 open issues of a project for a severity none of them had).
  const keptFirst =
    !labels && onlyEquality && narrowed === undefined && keptTogether(shape.table, query.where as Where)
      ? countMatching(this, query.workspaceId, query.where as Where)
      : undefined;
  if (keptFirst === 0) return { rows: [], total: 0 };
  // Sorted by another field: keyset on (its sort key, id), read from its index (migration 17).
  const { after, keyset, orderAndLimit } = pageClauses(name, query, conditions);
  const page = (from: string) =>
    conn
      .values<string>(`SELECT data FROM ${from} WHERE ${where}${keyset} ${orderAndLimit}`, conditions.params)
      .map(parse);
  const counted = (from: string) => {
    const totals = conn.row<{ total: number; sum: number | null }>(
      `SELECT COUNT(*) AS total, ${sumField ? `COALESCE(SUM(${columnOf(sumField)}), 0)` : 'NULL'} AS sum ` +
        `FROM ${from} WHERE ${where}`,
      params,
    );
    const total = totals?.total ?? 0;
    return sumField === undefined ? { total } : { total, sum: totals?.sum ?? 0 };
  };

  const byUpdate = query.updatedSince !== undefined && updatedIndexes[shape.table];
  if (byUpdate) {
    // Rows changed since: a bounded look into the index by update time says whether they are few.
    const changed = conn.value<number>(
      `SELECT COUNT(*) FROM (SELECT 1 FROM ${shape.table} INDEXED BY ${byUpdate.updated} ` +
        'WHERE workspace_id = ? AND updated_at >= ? LIMIT ?)',
      [query.workspaceId, query.updatedSince, sortedUpdatesAtMost + 1],
    );
    if ((changed ?? 0) <= sortedUpdatesAtMost) {
      // Few: read, counted and sorted from that index, whatever the workspace holds.
      const updated = `${shape.table} INDEXED BY ${byUpdate.updated}`;
      return { rows: page(updated), ...counted(updated) };
    }
  }

  // Many rows in a range of a due day or an estimate: the page walked in creation order, the
  // total counted through the range's index (sorted-ranges.ts). Not with a filter that has an
  // index: its rows may be far fewer, or none in the range (then a walk of every open issue).
  const manyRanged =
    byUpdate ||
    phrase !== null ||
    labels ||
    query.sort ||
    indexedFilters(shape.table, query.where as Where).length > 0
      ? null
      : manyInRange(conn, shape, query);
  if (manyRanged) {
    const rows = page(`${shape.table} INDEXED BY ${manyRanged.ordered}`);
    if (sumField === undefined && (query.withoutTotal || (!after && rows.length < query.limit)))
      return { rows, total: rows.length };
    return { rows, ...counted(manyRanged.counted) };
  }

  let from = labelled?.driven
    ? `${shape.table} NOT INDEXED`
    : phrase !== null
      ? searchSource(this, query.workspaceId, phrase)
      : source(this, query.workspaceId, query.where as Where, query.search !== undefined || ranged);
  // Many changed rows: walked in creation order, where a page fills the sooner the more match.
  // Left to itself, SQLite may read them all through the index by update time and sort them.
  if (byUpdate && from === shape.table)
    from = walkedInCreationOrder(shape.table, query.where as Where, byUpdate);
  // Sorted by another field: SQLite picks that field's index (or a filter's) for the page itself.
  const rows = page(query.sort && phrase === null && !labelled?.driven ? shape.table : from);
  // A first page shorter than the limit already holds every match; a caller may need no count.
  if (sumField === undefined && (query.withoutTotal || (!after && rows.length < query.limit)))
    return { rows, total: rows.length };
  if (narrowed !== undefined) return { rows, total: narrowed.total };
  if (labels) {
    if (keptTotal !== null) return { rows, total: keptTotal };
    // Labels many issues carry were probed row by row for the page, which a page fills soon;
    // counted so, every row of the workspace would be read (9 s for `labelsAny` of 101,000 of
    // a million issues). Counted from the label table instead: their issues found by key.
    if (!labelled?.driven && query.search === undefined && drivesByLabel(labels))
      return { rows, ...countedByLabel(this, query, labels, sumField) };
    // None of some labels, and filters a kept count or an index counts: those matches, less the
    // ones that carry a label of them (found from the label table), rather than a probe of the
    // label table for every match (1 s of a million issues for a label few carry).
    if (onlyEquality && onlyNoneOf(labels)) {
      const all = countMatching(this, query.workspaceId, query.where as Where);
      const carrying = countedByLabel(this, query, { any: labels.none }, undefined).total;
      return { rows, total: all - carrying };
    }
    return { rows, ...counted(from) };
  }
  if (onlyEquality)
    return { rows, total: keptFirst ?? countMatching(this, query.workspaceId, query.where as Where, from) };
  return { rows, ...counted(from) };
}

/** Whether `where` filters by several columns (archivedAt null aside) that a kept count holds together. */
function keptTogether(table: string, where: Where): boolean {
  const filters = Object.entries(where ?? {}).filter(
    ([field, value]) => value !== undefined && !(field === 'archivedAt' && value === null),
  );
  return filters.length > 1 && countKey(table, Object.fromEntries(filters)) !== null;
}

/** Whether a list filters by equalities alone: no search, time bound, range or sum. */
const onlyEqualityOf = (query: ListQuery<CollectionName>): boolean =>
  query.sum === undefined &&
  query.search === undefined &&
  query.createdAfter === undefined &&
  query.createdBefore === undefined &&
  query.updatedSince === undefined &&
  query.updatedBefore === undefined &&
  !isRanged(query);

/**
 * The number of issues matching `where` that carry `label`, from the kept counts (migration 26),
 * where `where` is at most one filter on a shared column and, as lists ask by default, the rows
 * not archived (the archived ones among the label's are found through the index of those few
 * rows, and taken off); else null.
 */
function labelledCount(
  state: CollectionState,
  workspaceId: string,
  label: string,
  where: Where,
): number | null {
  const { conn, shape } = state;
  const { archivedAt, ...rest } = where ?? {};
  if (archivedAt !== undefined && archivedAt !== null) return null;
  const key = countKey(shape.table, rest);
  const kept = key && labelKeyCount(conn, workspaceId, label, key);
  if (kept === null || kept === 0 || archivedAt === undefined) return kept;
  const archived = matching(shape, workspaceId, rest);
  const carries = carriesLabel(workspaceId, label);
  archived.clauses.push('archived_at IS NOT NULL', carries.sql);
  archived.params.push(...carries.params);
  const among =
    conn.value<number>(
      `SELECT COUNT(*) FROM ${shape.table} INDEXED BY ${shape.table}_archived WHERE ${archived.clauses.join(' AND ')}`,
      archived.params,
    ) ?? 0;
  return kept - among;
}

/**
 * The total of a labelled list of equality filters, from the kept counts: exact for one label
 * asked for, or one asked to be absent, with at most one shared filter (labelledCount); 0 where
 * a label every match must carry, or each label of which a match must carry one, is carried by
 * none of the matches (or of one filter's); else null (counted).
 */
function keptLabelTotal(state: CollectionState, query: ListQuery<CollectionName>, labels: LabelMatch) {
  const where = query.where as Where;
  const count = (label: string) => labelledCount(state, query.workspaceId, label, where);
  // With several filters, none of the matches carries the label where none of the matches of
  // one filter alone does (its count, archived issues included, bounds theirs).
  const carriedByNone = (label: string) =>
    count(label) === 0 ||
    Object.entries(where ?? {}).some(
      ([field, value]) =>
        field !== 'archivedAt' &&
        value !== undefined &&
        labelledCount(state, query.workspaceId, label, { [field]: value }) === 0,
    );
  const all = labels.all ?? [];
  const none = labels.none ?? [];
  const [label] = all.length === 1 ? all : none;
  if (label !== undefined && labels.any === undefined && all.length + none.length === 1) {
    const carrying = count(label);
    if (all.length === 1 && carrying === null) return carriedByNone(label) ? 0 : null;
    if (all.length === 1 || carrying === null) return carrying;
    return countMatching(state, query.workspaceId, where) - carrying;
  }
  if (all.some(carriedByNone)) return 0;
  if (labels.any?.every(carriedByNone)) return 0;
  return null;
}

/** Whether a label match names labels its issues can be found by (all of, any of; not none of). */
const drivesByLabel = (labels: LabelMatch): boolean =>
  (labels.all?.length ?? 0) > 0 || (labels.any?.length ?? 0) > 0;

/** Whether a label match asks for none of some labels, and nothing else of labels. */
const onlyNoneOf = (labels: LabelMatch): labels is LabelMatch & { none: readonly string[] } =>
  (labels.none?.length ?? 0) > 0 && (labels.all?.length ?? 0) === 0 && labels.any === undefined;

/** The total (and sum) of a labelled list, counted from the issues its labels name (addLabels, driven). */
function countedByLabel(
  state: CollectionState,
  query: ListQuery<CollectionName>,
  labels: LabelMatch,
  sumField: string | undefined,
): { total: number; sum?: number } {
  const { conn, shape } = state;
  const byLabel = matching(shape, query.workspaceId, query.where as Where);
  addRanges(shape, query.range, byLabel);
  addTimeBounds(query, byLabel);
  addNotNull(query, byLabel);
  addLabels(conn, query.workspaceId, labels, byLabel, Number.POSITIVE_INFINITY);
  const totals = conn.row<{ total: number; sum: number | null }>(
    `SELECT COUNT(*) AS total, ${sumField ? `COALESCE(SUM(${columnOf(sumField)}), 0)` : 'NULL'} AS sum ` +
      `FROM ${shape.table} NOT INDEXED WHERE ${byLabel.sql}`,
    byLabel.params,
  );
  const total = totals?.total ?? 0;
  return sumField === undefined ? { total } : { total, sum: totals?.sum ?? 0 };
}

/** The tables a collection's kept reads depend on (engine/read-cache.ts), one array per collection. */
const tablesOf = Object.fromEntries(
  Object.entries(shapes).map(([name, { table }]) => [name, [table]]),
) as unknown as Record<CollectionName, readonly string[]>;

/**
 * One collection over its table: the record as JSON, its filter, range and sum fields as columns.
 * Its methods find the connection through `this` (a copy made by spreading it works too; a
 * method taken off it and called bare does not).
 */
export function sqliteCollection<Name extends CollectionName>(
  name: Name,
  conn: Conn,
  writePendingSearch: () => void = () => {},
): Collection<Name> {
  const collection = {
    name,
    shape: shapes[name],
    conn,
    writePendingSearch,
    insert,
    get,
    getJson,
    findOne,
    update,
    delete: remove,
    deleteWhere,
    count,
    tally,
    list,
  };
  return collection as CollectionState as unknown as Collection<Name>;
}
