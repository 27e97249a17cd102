import { type CollectionName, collectionDefinitions, type FilterMatch } from '../../../core/storage.js';
import { listClause } from '../../shared/list-clause.js';

/** How one collection maps onto its table: derived from `collectionDefinitions`. */
export interface CollectionShape {
  name: CollectionName;
  table: string;
  /** Record fields stored in their own column (filters, ranges, sums, sorts), with the column name. */
  columns: readonly { field: string; column: string }[];
  filters: ReadonlySet<string>;
  ranges: ReadonlySet<string>;
  sums: ReadonlySet<string>;
  /** Nullable filter fields whose set rows have an index of their own (`<table>_archived`). */
  notNull: readonly string[];
  search: readonly string[];
  insertSql: string;
  updateSql: string;
  /** SQLite's description of each unique constraint → the port's UniqueViolation name. */
  uniqueRules: Readonly<Record<string, string>>;
}

const tables: Record<CollectionName, string> = {
  projects: 'projects',
  issues: 'issues',
  outcomes: 'outcomes',
  context: 'context_items',
  decisions: 'decisions',
  timeEntries: 'time_entries',
  comments: 'comments',
  issueRelations: 'issue_relations',
};

/** Unique rules beyond the id, as SQLite words them in its error message. */
const extraUniqueRules: Partial<Record<CollectionName, Record<string, string>>> = {
  projects: { 'projects.workspace_id, projects.key': 'project.key' },
  issues: { 'issues.workspace_id, issues.project_id, issues.number': 'issue.number' },
};

/** `projectId` → `project_id`. */
export const columnOf = (field: string): string => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

function shapeOf(name: CollectionName): CollectionShape {
  const definition = collectionDefinitions[name];
  const table = tables[name];
  // Sort fields too (issue and outcome titles, due dates), but for updatedAt, a column of every table.
  const sorted = definition.sorts.filter((field) => field !== 'updatedAt');
  const fields = [
    ...new Set<string>([...definition.filters, ...definition.ranges, ...definition.sums, ...sorted]),
  ];
  const columns = fields.map((field) => ({ field, column: columnOf(field) }));
  const names = [
    'id',
    'workspace_id',
    'created_at',
    'updated_at',
    'version',
    ...columns.map((c) => c.column),
  ];
  return {
    name,
    table,
    columns,
    filters: new Set(definition.filters),
    ranges: new Set(definition.ranges),
    sums: new Set(definition.sums),
    notNull: definition.notNull,
    search: definition.search,
    insertSql: `INSERT INTO ${table} (${names.join(', ')}, data) VALUES (${names.map(() => '?').join(', ')}, ?)`,
    updateSql: `UPDATE ${table} SET ${names
      .slice(2)
      .map((column) => `${column} = ?`)
      .join(', ')}, data = ? WHERE id = ? AND workspace_id = ? AND version = ?`,
    uniqueRules: { [`${table}.id`]: `${name}.id`, ...extraUniqueRules[name] },
  };
}

export const shapes = Object.fromEntries(
  (Object.keys(tables) as CollectionName[]).map((name) => [name, shapeOf(name)]),
) as Record<CollectionName, CollectionShape>;

/** A WHERE clause under construction: SQL fragments joined by AND, and their parameters. */
export interface Conditions {
  clauses: string[];
  params: unknown[];
}

/** Adds `column = value` (or `IS NULL`) for every defined entry of `where`. */
export function addEquality(
  shape: CollectionShape,
  where: Partial<Record<string, FilterMatch>> | undefined,
  into: Conditions,
): void {
  for (const [field, value] of Object.entries(where ?? {})) {
    if (value === undefined) continue;
    if (!shape.filters.has(field)) throw new Error(`${shape.name}: "${field}" is not a filter field`);
    const column = columnOf(field);
    if (value !== null && typeof value === 'object') {
      const not = !Array.isArray(value);
      const all = not ? (value as { not: readonly unknown[] }).not : (value as readonly unknown[]);
      const values = all.filter((v) => v !== null);
      into.clauses.push(
        listClause(
          column,
          values.map(() => '?'),
          values.length < all.length,
          not,
        ),
      );
      into.params.push(...values);
    } else if (value === null) {
      into.clauses.push(`${columnOf(field)} IS NULL`);
    } else {
      into.clauses.push(`${columnOf(field)} = ?`);
      into.params.push(value);
    }
  }
}

/** Adds inclusive bounds on range fields. */
export function addRanges(
  shape: CollectionShape,
  range: Partial<Record<string, { gte?: string | number; lte?: string | number }>> | undefined,
  into: Conditions,
): void {
  for (const [field, bounds] of Object.entries(range ?? {})) {
    if (bounds === undefined) continue;
    if (!shape.ranges.has(field)) throw new Error(`${shape.name}: "${field}" is not a range field`);
    if (bounds.gte !== undefined) {
      into.clauses.push(`${columnOf(field)} >= ?`);
      into.params.push(bounds.gte);
    }
    if (bounds.lte !== undefined) {
      into.clauses.push(`${columnOf(field)} <= ?`);
      into.params.push(bounds.lte);
    }
  }
}

/** Escapes LIKE's wildcards (and the escape character itself), for `ESCAPE '\'`. */
export const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** An FTS5 query matching `needle` literally: one quoted phrase, with its quotes doubled. */
export const ftsPhrase = (needle: string): string => `"${needle.replaceAll('"', '""')}"`;

/**
 * Adds a case-insensitive substring match over the search fields. Needles of three characters
 * or more go to the trigram index (the phrase it was asked for is returned); shorter ones
 * (which have no trigram) to a LIKE scan (null).
 */
export function addSearch(shape: CollectionShape, needle: string, into: Conditions): string | null {
  if (shape.search.length === 0) {
    into.clauses.push('FALSE');
    return null;
  }
  if ([...needle].length >= 3) {
    const phrase = ftsPhrase(needle);
    into.clauses.push(`pk IN (SELECT rowid FROM ${shape.table}_search WHERE ${shape.table}_search MATCH ?)`);
    into.params.push(phrase);
    return phrase;
  }
  const pattern = `%${escapeLike(needle.toLowerCase())}%`;
  const likes = shape.search.map((field) => `fold_case(json_extract(data, '$.${field}')) LIKE ? ESCAPE '\\'`);
  into.clauses.push(`(${likes.join(' OR ')})`);
  for (const _ of shape.search) into.params.push(pattern);
  return null;
}
