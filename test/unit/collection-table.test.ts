import { describe, expect, it } from 'vitest';
import { postgresDialect, shapes as postgresShapes } from '../../src/adapters/postgres/collection-sql.js';
import { collectionNames, rowValues, tableOf } from '../../src/adapters/shared/collection-table.js';
import type { SqlDialect } from '../../src/adapters/shared/sql-dialect.js';
import { sqliteDialect, shapes as sqliteShapes } from '../../src/adapters/sqlite/stores/collection-sql.js';
import { collectionDefinitions } from '../../src/core/families/collections.js';

/** The parameters a statement takes: `?` each, or the highest `$n`. */
function parameterCount(sql: string): number {
  const numbered = [...sql.matchAll(/\$(\d+)/g)].map((match) => Number(match[1]));
  return numbered.length > 0 ? Math.max(...numbered) : (sql.match(/\?/g) ?? []).length;
}

/** A row with a value in every field the collection keeps in a column. */
function sampleRow(name: (typeof collectionNames)[number]) {
  const definition = collectionDefinitions[name];
  const fields = [...definition.filters, ...definition.ranges, ...definition.sums, ...definition.sorts];
  const row: Record<string, unknown> = {
    id: 'id_1',
    workspaceId: 'wsp_1',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-02T00:00:00.000Z',
    version: 3,
  };
  for (const field of fields) row[field] ??= `${field}\u0000value`;
  for (const field of definition.search) row[field] ??= `${field} Text`;
  return row as { createdAt: string; updatedAt: string; version: number };
}

const adapters: [string, SqlDialect, typeof sqliteShapes][] = [
  ['SQLite', sqliteDialect, sqliteShapes],
  ['PostgreSQL', postgresDialect, postgresShapes],
];

describe.each(adapters)('the %s collection tables', (_adapter, dialect, shapes) => {
  it.each(collectionNames)('give %s an insert and an update taking exactly the row values', (name) => {
    const shape = shapes[name];
    const values = rowValues(shape, dialect, sampleRow(name));
    expect(parameterCount(shape.insertSql)).toBe(2 + values.length);
    expect(parameterCount(shape.updateSql)).toBe(values.length + 3);
  });

  it('store every filter, range, sum and sort field (but updatedAt) in a column of its own', () => {
    for (const name of collectionNames) {
      const { filters, ranges, sums, sorts } = collectionDefinitions[name];
      const expected = new Set([...filters, ...ranges, ...sums, ...sorts.filter((f) => f !== 'updatedAt')]);
      expect(new Set(shapes[name].columns.map((c) => c.field))).toEqual(expected);
      expect(shapes[name].table).toBe(tableOf[name]);
    }
  });
});

describe('the collection tables of both SQL adapters', () => {
  it('name the same tables and columns, whichever adapter writes them', () => {
    for (const name of collectionNames) {
      expect(postgresShapes[name].table).toBe(sqliteShapes[name].table);
      expect(postgresShapes[name].columns).toEqual(sqliteShapes[name].columns);
    }
  });

  it('write a sort-only text without NUL on PostgreSQL, and as it is on SQLite', () => {
    const row = sampleRow('issues') as unknown as Record<string, unknown>;
    const at = (shapes: typeof sqliteShapes, field: string) =>
      3 + shapes.issues.columns.findIndex((c) => c.field === field);
    const pgValues = rowValues(postgresShapes.issues, postgresDialect, sampleRow('issues'));
    const sqliteValues = rowValues(sqliteShapes.issues, sqliteDialect, sampleRow('issues'));
    expect(postgresShapes.issues.sortOnly.has('title')).toBe(true);
    expect(pgValues[at(postgresShapes, 'title')]).toBe('titlevalue');
    expect(sqliteValues[at(sqliteShapes, 'title')]).toBe(row.title);
  });
});
