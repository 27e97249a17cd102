import type { CollectionName } from '../../core/port/index.js';
import { type CollectionTable, collectionTables } from '../shared/collection-table.js';
import type { SqlConditions } from '../shared/sql-conditions.js';
import type { SqlDialect } from '../shared/sql-dialect.js';
import { Conditions, placeholder } from './sql.js';

/** Unique rules beyond the id: constraint name → what the port calls it. */
const extraUniqueRules: Partial<Record<CollectionName, Record<string, string>>> = {
  projects: { projects_key: 'project.key' },
  issues: { issues_number: 'issue.number', issues_external: 'issue.external' },
};

/**
 * The fields of each unique rule beyond the id, besides the workspace: an insert that inserted
 * nothing (ON CONFLICT DO NOTHING) asks them in turn which one it ran into.
 */
export const uniqueFields: Readonly<Record<string, readonly string[]>> = {
  'project.key': ['key'],
  'issue.number': ['projectId', 'number'],
  'issue.external': ['external.id', 'external.source'],
};

/**
 * The text a search looks in: the search fields, folded as the memory adapter folds, joined by
 * a control character (search needles never hold one) so that no match spans two fields.
 */
export function searchText(search: readonly string[], record: Record<string, unknown>): string {
  return search
    .map((field) => record[field])
    .filter((value): value is string => typeof value === 'string')
    .map((value) => value.toLowerCase())
    .join('\u001f')
    .replaceAll('\u0000', ''); // PostgreSQL text cannot hold NUL; a needle never holds one either.
}

/**
 * How PostgreSQL writes a collection's table: `$n` placeholders; an insert that clashes with a
 * unique rule inserts nothing (the caller finds which); searched through a `search_text` column.
 */
export const postgresDialect: SqlDialect = {
  placeholder,
  insertSuffix: ' ON CONFLICT DO NOTHING',
  searchText,
  // Sort-only text (titles) without NUL, which text cannot hold; the JSON copy keeps it.
  columnValue: (value, sortOnly) =>
    sortOnly && typeof value === 'string' ? value.replaceAll('\u0000', '') : value,
  uniqueRules: (name) => ({ ...extraUniqueRules[name] }),
};

/** Each collection's table, as PostgreSQL writes it. */
export const shapes = collectionTables(postgresDialect);

/** The highest `$n` of a statement: how many parameters it takes. */
const parameterCount = (sql: string): number =>
  Math.max(0, ...(sql.match(/\$\d+/g) ?? []).map((m) => Number(m.slice(1))));

/**
 * A collection's insert and update as PostgreSQL sends them: the shared statements (collectionTables)
 * with the row's account, a parameter after all the others: the insert writes it, the update
 * finds the row by it (`account_id = $n`, as every statement on a tenant table does).
 */
function routedWrites(shape: CollectionTable): { insertSql: string; updateSql: string } {
  const insert = /^INSERT INTO (\w+) \((.*)\) VALUES \((.*)\)( ON CONFLICT DO NOTHING)$/.exec(
    shape.insertSql,
  );
  if (!insert) throw new Error(`${shape.table}: an insert of another shape`);
  const [, table, columns, values, suffix] = insert;
  const account = `$${parameterCount(shape.insertSql) + 1}`;
  return {
    insertSql: `INSERT INTO ${table} (${columns}, account_id) VALUES (${values}, ${account})${suffix}`,
    updateSql: `${shape.updateSql} AND account_id = $${parameterCount(shape.updateSql) + 1}`,
  };
}

/** Each collection's insert and update with the account (routedWrites). */
export const writesOf = Object.fromEntries(
  Object.values(shapes).map((shape) => [shape.name, routedWrites(shape)]),
) as Readonly<Record<CollectionName, { insertSql: string; updateSql: string }>>;

/** Adds a case-insensitive substring match over the search fields. */
export function addSearch(shape: CollectionTable, needle: string, into: SqlConditions): void {
  if (shape.search.length === 0) {
    into.clauses.push('FALSE');
    return;
  }
  // strpos: a literal substring test, with no wildcard or escape to get wrong.
  into.add((p) => `strpos(search_text, ${p}) > 0`, needle.toLowerCase());
}

/** Conditions scoped to one workspace of the account: `account_id = $1 AND workspace_id = $2`. */
export const scoped = (accountId: string, workspaceId: string): Conditions =>
  new Conditions().add((p) => `account_id = ${p}`, accountId).add((p) => `workspace_id = ${p}`, workspaceId);
