import {
  type Collection,
  type CollectionName,
  type CollectionRows,
  type FilterValue,
  type ListQuery,
  UniqueViolation,
  VersionMismatch,
} from '../../core/storage.js';
import { storedJsonOf } from '../shared/stored-json.js';
import {
  addEquality,
  addRanges,
  addSearch,
  type CollectionShape,
  columnOf,
  scoped,
  searchText,
  shapes,
} from './collection-sql.js';
import type { Conn } from './connection.js';
import { withUniqueRules } from './errors.js';

type Where = Partial<Record<string, FilterValue>> | undefined;

/**
 * The column values of a row after id and workspace, in the order of the shape's statements;
 * `json`: the row's text when the caller made it (Collection.insert).
 */
function columnValues(
  shape: CollectionShape,
  row: { createdAt: string; updatedAt: string; version: number },
  json?: string,
) {
  const record = row as unknown as Record<string, unknown>;
  return [
    row.createdAt,
    row.updatedAt,
    row.version,
    ...shape.columns.map(({ field }) => record[field] ?? null),
    ...(shape.search.length > 0 ? [searchText(shape, record)] : []),
    json ?? JSON.stringify(row),
  ];
}

/** One collection over its table: the record as JSON, its filter, range and sum fields as columns. */
export function postgresCollection<Name extends CollectionName>(name: Name, conn: Conn): Collection<Name> {
  type Row = CollectionRows[Name];
  const shape = shapes[name];
  const { table } = shape;
  const parse = (data: string) => JSON.parse(data) as Row;
  const matching = (workspaceId: string, where: Where) => {
    const conditions = scoped(workspaceId);
    addEquality(shape, where, conditions);
    return conditions;
  };

  /** Which unique rule an insert that inserted nothing ran into. */
  async function clashOf(row: Row): Promise<UniqueViolation> {
    const taken = await conn.value<number>(`SELECT 1 FROM ${table} WHERE id = $1`, [row.id]);
    if (taken !== undefined) return new UniqueViolation(`${name}.id`);
    const [what] = Object.values(shape.uniqueRules);
    return new UniqueViolation(what ?? `${name}.id`);
  }

  const getRow = async (workspaceId: string, id: string): Promise<Row | null> => {
    const data = await conn.value<string>(`SELECT data FROM ${table} WHERE id = $1 AND workspace_id = $2`, [
      id,
      workspaceId,
    ]);
    return data === undefined ? null : parse(data);
  };

  return {
    async insert(row, json) {
      const inserted = await conn.run(shape.insertSql, [
        row.id,
        row.workspaceId,
        ...columnValues(shape, row, json),
      ]);
      if (inserted === 0) throw await clashOf(row);
    },
    get: getRow,
    async getJson(workspaceId, id) {
      const row = await getRow(workspaceId, id);
      return row === null ? null : storedJsonOf(row);
    },
    async findOne(workspaceId, where) {
      const conditions = matching(workspaceId, where);
      const data = await conn.value<string>(
        `SELECT data FROM ${table} WHERE ${conditions.sql} ORDER BY pk LIMIT 1`,
        conditions.params,
      );
      return data === undefined ? null : parse(data);
    },
    async update(row, expectedVersion) {
      const changed = await withUniqueRules(shape.uniqueRules, () =>
        conn.run(shape.updateSql, [...columnValues(shape, row), row.id, row.workspaceId, expectedVersion]),
      );
      if (changed === 1) return;
      const current = await conn.value<number>(
        `SELECT version FROM ${table} WHERE id = $1 AND workspace_id = $2`,
        [row.id, row.workspaceId],
      );
      throw new VersionMismatch(current ?? null);
    },
    async delete(workspaceId, id) {
      const deleted = await conn.run(`DELETE FROM ${table} WHERE id = $1 AND workspace_id = $2`, [
        id,
        workspaceId,
      ]);
      return deleted > 0;
    },
    async deleteWhere(workspaceId, where) {
      const conditions = matching(workspaceId, where);
      const deleted = await conn.rows<{ pk: number; data: string }>(
        `DELETE FROM ${table} WHERE ${conditions.sql} RETURNING pk, data`,
        conditions.params,
      );
      // RETURNING order is unspecified: give them back in insertion order.
      return deleted.sort((a, b) => a.pk - b.pk).map((row) => parse(row.data));
    },
    async count(workspaceId, where) {
      const conditions = matching(workspaceId, where);
      return (
        (await conn.value<number>(
          `SELECT COUNT(*)::int FROM ${table} WHERE ${conditions.sql}`,
          conditions.params,
        )) ?? 0
      );
    },
    async list(query: ListQuery<Name>) {
      const conditions = matching(query.workspaceId, query.where as Where);
      addRanges(shape, query.range, conditions);
      if (query.createdAfter !== undefined) conditions.add((p) => `created_at >= ${p}`, query.createdAfter);
      if (query.createdBefore !== undefined) conditions.add((p) => `created_at < ${p}`, query.createdBefore);
      if (query.updatedSince !== undefined) conditions.add((p) => `updated_at >= ${p}`, query.updatedSince);
      if (query.search !== undefined) addSearch(shape, query.search, conditions);
      for (const field of query.notNull ?? []) conditions.clauses.push(`${columnOf(field)} IS NOT NULL`);
      const where = conditions.sql;
      const matchParams = [...conditions.params];

      const after = query.after;
      const ascending = query.order === 'asc';
      let keyset = '';
      if (after) {
        const createdAt = conditions.param(after.createdAt);
        const id = conditions.param(after.id);
        keyset = ` AND (created_at, id) ${ascending ? '>' : '<'} (${createdAt}, ${id})`;
      }
      const limit = conditions.param(query.limit);
      const order = ascending ? 'created_at, id' : 'created_at DESC, id DESC';
      const rows = (
        await conn.values<string>(
          `SELECT data FROM ${table} WHERE ${where}${keyset} ORDER BY ${order} LIMIT ${limit}`,
          conditions.params,
        )
      ).map(parse);

      const sumField = query.sum as string | undefined;
      if (sumField !== undefined && !shape.sums.has(sumField)) {
        throw new Error(`${name}: "${sumField}" is not a sum field`);
      }
      // A first page shorter than the limit already holds every match.
      if (!after && sumField === undefined && rows.length < query.limit) return { rows, total: rows.length };
      const nullField = shape.notNull.find((field) => (query.where as Where)?.[field] === null);
      if (nullField !== undefined && sumField === undefined) {
        // Null asked of a field null in most rows (archivedAt): the matches without that condition
        // (read through the list indexes, as before) less those where it is set (through the
        // index of those rows, migration 13), rather than a check of every match's row.
        const { [nullField]: _null, ...rest } = query.where as Record<string, unknown>;
        const others = (extra: string | null) => {
          const c = matching(query.workspaceId, rest as Where);
          addRanges(shape, query.range, c);
          if (query.createdAfter !== undefined) c.add((p) => `created_at >= ${p}`, query.createdAfter);
          if (query.createdBefore !== undefined) c.add((p) => `created_at < ${p}`, query.createdBefore);
          if (query.updatedSince !== undefined) c.add((p) => `updated_at >= ${p}`, query.updatedSince);
          if (query.search !== undefined) addSearch(shape, query.search, c);
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
