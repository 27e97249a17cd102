import { collectionDefinitions } from '../../core/families/collections.js';
import type { CollectionName, FilterMatch } from '../../core/port/index.js';
import { listClause } from '../shared/list-clause.js';
import { Conditions, placeholders } from './sql.js';

/** How one collection maps onto its table: derived from `collectionDefinitions`. */
export interface CollectionShape {
  name: CollectionName;
  table: string;
  /**
   * Text fields with a column only to sort by (titles): stored without NUL characters, which
   * PostgreSQL's text cannot hold (the API refuses them; only the JSON copy keeps any).
   */
  sortOnly: ReadonlySet<string>;
  /** Record fields stored in their own column (filters, ranges, sums, sorts), with the column name. */
  columns: readonly { field: string; column: string }[];
  filters: ReadonlySet<string>;
  ranges: ReadonlySet<string>;
  sums: ReadonlySet<string>;
  /** Nullable filter fields whose set rows have an index of their own (`<table>_archived`). */
  notNull: readonly string[];
  search: readonly string[];
  /** Inserts a row; a clash with any unique rule inserts nothing (ON CONFLICT DO NOTHING). */
  insertSql: string;
  /** Replaces a row: its id, workspace and expected version are the last three parameters. */
  updateSql: string;
  /** Unique constraints beyond the id, by name → the port's UniqueViolation name. */
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

/** Unique rules beyond the id: constraint name → what the port calls it. */
const extraUniqueRules: Partial<Record<CollectionName, Record<string, string>>> = {
  projects: { projects_key: 'project.key' },
  issues: { issues_number: 'issue.number' },
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
  const searchable = definition.search.length > 0;
  const names = [
    'id',
    'workspace_id',
    'created_at',
    'updated_at',
    'version',
    ...columns.map((c) => c.column),
    ...(searchable ? ['search_text'] : []),
    'data',
  ];
  const set = names.slice(2).map((column, i) => `${column} = $${i + 1}`);
  const n = names.length - 2;
  return {
    name,
    table,
    columns,
    sortOnly: new Set(
      sorted.filter(
        (field) =>
          !([...definition.filters, ...definition.ranges, ...definition.sums] as string[]).includes(field),
      ),
    ),
    filters: new Set(definition.filters),
    ranges: new Set(definition.ranges),
    sums: new Set(definition.sums),
    notNull: definition.notNull,
    search: definition.search,
    insertSql: `INSERT INTO ${table} (${names.join(', ')}) VALUES (${placeholders(names.length)}) ON CONFLICT DO NOTHING`,
    updateSql: `UPDATE ${table} SET ${set.join(', ')} WHERE id = $${n + 1} AND workspace_id = $${n + 2} AND version = $${n + 3}`,
    uniqueRules: { ...extraUniqueRules[name] },
  };
}

export const shapes = Object.fromEntries(
  (Object.keys(tables) as CollectionName[]).map((name) => [name, shapeOf(name)]),
) as Record<CollectionName, CollectionShape>;

/**
 * The text a search looks in: the search fields, folded as the memory adapter folds, joined by
 * a control character (search needles never hold one) so that no match spans two fields.
 */
export function searchText(shape: CollectionShape, record: Record<string, unknown>): string {
  return shape.search
    .map((field) => record[field])
    .filter((value): value is string => typeof value === 'string')
    .map((value) => value.toLowerCase())
    .join('\u001f')
    .replaceAll('\u0000', ''); // PostgreSQL text cannot hold NUL; a needle never holds one either.
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
      const values = all.filter((v) => v !== null).map((v) => into.param(v));
      into.clauses.push(listClause(column, values, values.length < all.length, not));
    } else if (value === null) into.clauses.push(`${column} IS NULL`);
    else into.add((p) => `${columnOf(field)} = ${p}`, value);
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
    if (bounds.gte !== undefined) into.add((p) => `${columnOf(field)} >= ${p}`, bounds.gte);
    if (bounds.lte !== undefined) into.add((p) => `${columnOf(field)} <= ${p}`, bounds.lte);
  }
}

/** Adds a case-insensitive substring match over the search fields. */
export function addSearch(shape: CollectionShape, needle: string, into: Conditions): void {
  if (shape.search.length === 0) {
    into.clauses.push('FALSE');
    return;
  }
  // strpos: a literal substring test, with no wildcard or escape to get wrong.
  into.add((p) => `strpos(search_text, ${p}) > 0`, needle.toLowerCase());
}

/** Conditions scoped to one workspace. */
export const scoped = (workspaceId: string): Conditions =>
  new Conditions().add((p) => `workspace_id = ${p}`, workspaceId);
