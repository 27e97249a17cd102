import type { CollectionName } from '../../../core/port/index.js';
import { type CollectionTable, collectionTables } from '../../shared/collection-table.js';
import { SqlConditions } from '../../shared/sql-conditions.js';
import type { SqlDialect } from '../../shared/sql-dialect.js';

/** Unique rules beyond the id, as SQLite words them in its error message. */
const extraUniqueRules: Partial<Record<CollectionName, Record<string, string>>> = {
  projects: { 'projects.workspace_id, projects.key': 'project.key' },
  issues: {
    'issues.workspace_id, issues.project_id, issues.number': 'issue.number',
    'issues.workspace_id, issues.external_id, issues.external_source': 'issue.external',
  },
};

/** How SQLite writes a collection's table: `?` placeholders, searched through FTS5 tables (no search column). */
export const sqliteDialect: SqlDialect = {
  placeholder: () => '?',
  insertSuffix: '',
  columnValue: (value) => value,
  uniqueRules: (name, table) => ({ [`${table}.id`]: `${name}.id`, ...extraUniqueRules[name] }),
};

/** Each collection's table, as SQLite writes it. */
export const shapes = collectionTables(sqliteDialect);

/** Conditions scoped to one workspace. */
export const scoped = (workspaceId: string): SqlConditions =>
  new SqlConditions(sqliteDialect).add((p) => `workspace_id = ${p}`, workspaceId);

/** Escapes LIKE's wildcards (and the escape character itself), for `ESCAPE '\'`. */
export const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** An FTS5 query matching `needle` literally: one quoted phrase, with its quotes doubled. */
export const ftsPhrase = (needle: string): string => `"${needle.replaceAll('"', '""')}"`;

/**
 * Adds a case-insensitive substring match over the search fields. Needles of three characters
 * or more go to the trigram index (the phrase it was asked for is returned); shorter ones
 * (which have no trigram) to a LIKE scan (null).
 */
export function addSearch(shape: CollectionTable, needle: string, into: SqlConditions): string | null {
  if (shape.search.length === 0) {
    into.clauses.push('FALSE');
    return null;
  }
  if ([...needle].length >= 3) {
    const phrase = ftsPhrase(needle);
    into.add(
      (p) => `pk IN (SELECT rowid FROM ${shape.table}_search WHERE ${shape.table}_search MATCH ${p})`,
      phrase,
    );
    return phrase;
  }
  const pattern = `%${escapeLike(needle.toLowerCase())}%`;
  const likes = shape.search.map((field) => `fold_case(json_extract(data, '$.${field}')) LIKE ? ESCAPE '\\'`);
  into.clauses.push(`(${likes.join(' OR ')})`);
  for (const _ of shape.search) into.params.push(pattern);
  return null;
}
