import type {
  Comment,
  ContextItem,
  Decision,
  Issue,
  IssueRelation,
  Outcome,
  Project,
  SavedView,
  TimeEntry,
} from '../model.js';

/**
 * The data families stored as generic, workspace-scoped, versioned collections. An interface so
 * that a family keeps its record type in its own folder and adds its row here by declaration
 * merging (`declare module '../../port/collection.js'`), as `npm run new-family` writes it.
 */
export interface CollectionRows {
  projects: Project;
  issues: Issue;
  outcomes: Outcome;
  context: ContextItem;
  decisions: Decision;
  timeEntries: TimeEntry;
  comments: Comment;
  issueRelations: IssueRelation;
  views: SavedView;
}
export type CollectionName = keyof CollectionRows;

/** `external.id`: a member of an object-valued field (`external`), filtered as a field of its own. */
type MemberOf<Row> = {
  [K in keyof Row & string]: NonNullable<Row[K]> extends readonly unknown[]
    ? never
    : NonNullable<Row[K]> extends object
      ? `${K}.${keyof NonNullable<Row[K]> & string}`
      : never;
}[keyof Row & string];

/** A row's field or a member of one of its object fields (`external.id`). */
export type RowField<Row> = (keyof Row & string) | MemberOf<Row>;

/**
 * A field's value in a row: `external.id` is the `id` of the row's `external` (null when that is
 * null). Every adapter reads filter fields through this, so a member filters as a field does.
 */
export function fieldValue(row: unknown, field: string): unknown {
  const dot = field.indexOf('.');
  const record = row as Record<string, unknown>;
  if (dot === -1) return record[field];
  const outer = record[field.slice(0, dot)] as Record<string, unknown> | null | undefined;
  return outer?.[field.slice(dot + 1)] ?? null;
}

/**
 * A field of a collection's rows. Which of them a collection filters, ranges, sums or sorts on is
 * the family's `CollectionDefinition` (data, in `families/`), not the port's: a query naming another
 * field is the caller's error, which the families' request schemas rule out.
 */
export type FieldOf<Name extends CollectionName> = RowField<CollectionRows[Name]>;

/** What a list sorts on: a field's value, or its rank or stand-in (see `sortKeyOf`). */
export type SortKey = string | number;

/**
 * What an adapter must know of each collection: which fields it filters on (equality, so
 * adapters index them) and which text fields `search` looks in. Field names are the
 * record's camelCase names.
 */
export interface CollectionDefinition<Name extends CollectionName> {
  filters: readonly RowField<CollectionRows[Name]>[];
  search: readonly (keyof CollectionRows[Name] & string)[];
  /** Fields a list may bound by a range (inclusive both ends). */
  ranges: readonly (keyof CollectionRows[Name] & string)[];
  /** Numeric fields a list may sum over all matching rows. */
  sums: readonly (keyof CollectionRows[Name] & string)[];
  /**
   * Nullable filter fields a list may ask to be set (`notNull`), null in most rows (`archivedAt`):
   * adapters index the rows where they are set, so that both those rows and a total of the rows
   * where they are null (all the rows less those) stay index reads.
   */
  notNull: readonly (keyof CollectionRows[Name] & string)[];
  /**
   * Fields a list may sort by besides `createdAt` (`sort`), each with a column and an index on
   * (workspace, its sort key, id). `updatedAt` has its column already.
   */
  sorts: readonly (keyof CollectionRows[Name] & string)[];
}

export type FilterValue = string | number | null;

/**
 * What a filter field must be: one value (`null` for a null field), any of a list (`IN`, an
 * empty list matching nothing), or none of a list (`{ not }`; a null field is none of them).
 */
export type FilterMatch = FilterValue | readonly FilterValue[] | { not: readonly FilterValue[] };

/** Whether a row's value meets a filter (the memory adapter's reading of `FilterMatch`). */
export function meetsFilter(value: unknown, filter: FilterMatch): boolean {
  if (Array.isArray(filter)) return filter.includes((value ?? null) as FilterValue);
  if (filter !== null && typeof filter === 'object') {
    return !(filter as { not: readonly FilterValue[] }).not.includes((value ?? null) as FilterValue);
  }
  return value === filter;
}

/**
 * Labels an issue list asks for: every one of `all`, at least one of `any` (an empty `any`
 * matches nothing) and none of `none`. Adapters read them from an index of (workspace, label, issue).
 */
export interface LabelMatch {
  all?: readonly string[];
  any?: readonly string[];
  none?: readonly string[];
}

/** Whether a row's labels meet a label filter (the memory adapter's and the models' reading). */
export function meetsLabels(labels: readonly string[], match: LabelMatch): boolean {
  if (match.all && !match.all.every((label) => labels.includes(label))) return false;
  if (match.any && !match.any.some((label) => labels.includes(label))) return false;
  if (match.none?.some((label) => labels.includes(label))) return false;
  return true;
}

/** A list query over one collection within one workspace. */
export interface ListQuery<Name extends CollectionName> {
  workspaceId: string;
  /** Equality on the collection's filter fields; `null` matches a null field; see FilterMatch. */
  where?: Partial<Record<FieldOf<Name>, FilterMatch>>;
  /** Inclusive bounds on the collection's range fields. */
  range?: Partial<Record<FieldOf<Name>, { gte?: string | number; lte?: string | number }>>;
  /** Fields that must be set (not null), among the collection's `notNull` fields. */
  notNull?: readonly FieldOf<Name>[];
  /** A numeric field to sum over every matching row (not just the page). */
  sum?: FieldOf<Name>;
  /** Inclusive lower / exclusive upper bounds on `createdAt` and on `updatedAt`. */
  createdAfter?: string;
  createdBefore?: string;
  updatedSince?: string;
  updatedBefore?: string;
  /** Case-insensitive substring match over the collection's search fields. */
  search?: string;
  /** Issues only (other collections refuse it): the labels a row must carry; see LabelMatch. */
  labels?: LabelMatch;
  /**
   * `desc` (the default): newest first, (createdAt desc, id desc); `asc`: oldest first,
   * (createdAt asc, id asc). `after` and the rows follow the same order.
   */
  order?: 'asc' | 'desc';
  /** Keyset position: only rows strictly after it in the list's order. */
  after?: { createdAt: string; id: string };
  /**
   * Another order than creation time: (sort key, id) ascending or descending, the sort key as
   * `sortKeyOf` makes it of the field (a rank for an enum, a stand-in for null). `order` and
   * `after` are then ignored; `afterKey` is the keyset position.
   */
  sort?: { field: FieldOf<Name>; order: 'asc' | 'desc' };
  afterKey?: { key: SortKey; id: string };
  /**
   * With `sort`: the rows returned (not those `total` counts) are only those with `updatedAt` at
   * or before this instant. A row changed after a list's first page may have moved behind its
   * cursor; left out of the later pages, it never comes twice.
   */
  unchangedSince?: string;
  /**
   * The caller needs no count of the matches (it knows it already, as an outcome's summary knows
   * how many of its issues are blocked from its tally): none is made, and `total` is then the
   * number of rows returned. Not asked with `sum`.
   */
  withoutTotal?: true;
  limit: number;
}

export interface ListResult<Row> {
  /** At most `limit` rows, ordered by createdAt then id, descending unless the query says `asc`. */
  rows: Row[];
  /** How many rows match the query's filters, ignoring `after` and `limit`. */
  total: number;
  /** With `sum`: the sum of that field over the same rows `total` counts. */
  sum?: number;
}

/** One group of Collection.tally: the `by` fields' values (in order), its rows, their latest update. */
export interface Tally {
  values: unknown[];
  count: number;
  latestUpdatedAt: string;
}

/** A row as the API shows it, serialized (see Collection.getJson). */
export interface StoredJson {
  json: string;
  version: number;
}

export interface Collection<Name extends CollectionName, Row = CollectionRows[Name]> {
  /**
   * Inserts a new row; throws UniqueViolation when the id (or a unique key) exists. `json`, when
   * given, is what JSON.stringify makes of `row`, made by the caller already: an adapter that
   * stores the row as text may store it as it is.
   */
  insert(row: Row, json?: string): Promise<void>;
  /** The row with this id in this workspace, or null: another workspace's id is not found. */
  get(workspaceId: string, id: string): Promise<Row | null>;
  /**
   * The same row as the API shows it, already serialized: the JSON text `JSON.stringify` makes of
   * the row without its `workspaceId`, byte for byte, with the row's version (its ETag). A read
   * can send it without parsing and serializing the row again. Null as `get` is null.
   */
  getJson(workspaceId: string, id: string): Promise<StoredJson | null>;
  /** The first row whose fields equal `where` in this workspace, or null. */
  findOne(workspaceId: string, where: ListQuery<Name>['where']): Promise<Row | null>;
  /**
   * Replaces the row when its stored version equals `expectedVersion` (compare-and-set).
   * Concurrency contract: of concurrent updates expecting the same version, exactly one
   * succeeds; the others throw VersionMismatch carrying the current version (null if gone).
   */
  update(row: Row, expectedVersion: number): Promise<void>;
  /** Deletes the row; returns whether it existed in this workspace. */
  delete(workspaceId: string, id: string): Promise<boolean>;
  /** Deletes every row of the workspace whose fields equal `where`; returns the deleted rows. */
  deleteWhere(workspaceId: string, where: ListQuery<Name>['where']): Promise<Row[]>;
  /** How many rows of the workspace have fields equal to `where`. */
  count(workspaceId: string, where: ListQuery<Name>['where']): Promise<number>;
  /**
   * The rows of the workspace with fields equal to `where`, counted by their values of `by`: a
   * group for each combination that occurs, with its count and the latest `updatedAt` among its
   * rows. Read in the database (one grouped statement), not row by row.
   */
  tally(workspaceId: string, where: ListQuery<Name>['where'], by: readonly FieldOf<Name>[]): Promise<Tally[]>;
  /** Rows matching the query, newest first (oldest first with `order: 'asc'`), with the count of all matches. */
  list(query: ListQuery<Name>): Promise<ListResult<Row>>;
}
