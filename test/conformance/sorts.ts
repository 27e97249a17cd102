import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type Collection,
  type CollectionName,
  type CollectionRows,
  collectionDefinitions,
  type StorageTx,
} from '../../src/core/index.js';
import { issueSeverities, issueStatuses } from '../../src/core/model.js';
import { type FilterMatch, meetsFilter } from '../../src/core/port/index.js';
import { type SortKey, sortKeyOf, sortRanks } from '../../src/core/sort-keys.js';
import type { AdapterUnderTest } from '../support/adapters.js';
import { at, freshStore, sampleRow } from './fixtures.js';

type Row = CollectionRows[CollectionName];

/** Values each sort field takes in the rows of the test: ties, nulls and case included. */
const values: Record<string, fc.Arbitrary<unknown>> = {
  updatedAt: fc.integer({ min: 0, max: 5 }).map(at),
  number: fc.integer({ min: 1, max: 4 }),
  severity: fc.constantFrom(...issueSeverities),
  status: fc.constantFrom(...issueStatuses),
  title: fc.constantFrom('apple', 'Apple', 'Zebra', 'é', 'b'),
  dueDate: fc.constantFrom(null, '2026-01-01', '2026-12-31'),
  dueOn: fc.constantFrom(null, '2026-01-01', '2026-12-31'),
  estimate: fc.constantFrom(null, 0, 0.5, 3, 1_000_000),
  date: fc.constantFrom('2026-11-01', '2026-11-02', '2026-11-03'),
  minutes: fc.integer({ min: 1, max: 3 }),
};

const sorted = (Object.keys(collectionDefinitions) as CollectionName[]).flatMap((name) =>
  (collectionDefinitions[name].sorts as readonly string[]).map((field) => ({ name, field })),
);

const precedes = (a: { key: SortKey; id: string }, b: { key: SortKey; id: string }) =>
  a.key < b.key || (a.key === b.key && a.id < b.id);

/**
 * A filter on a ranked sort field (issues' status and severity), or none: one value, several, or
 * all but some, and a label or none. The SQL adapters read only the ranks it lets through (and in
 * a read, only those their kept counts say have matches), so the pages must still be every match
 * in order.
 */
const filterOn = (name: CollectionName, field: string): fc.Arbitrary<FilterMatch | undefined> => {
  const ranks = sortRanks(name, field);
  if (ranks === undefined) return fc.constant(undefined);
  const some = fc.subarray([...ranks], { minLength: 1 });
  return fc.oneof(
    fc.constant(undefined),
    fc.constantFrom(...ranks),
    some,
    some.map((not) => ({ not })),
  );
};

/** Every collection's sort fields: pages by (sort key, id) either way, with the exact total. */
export function sortTests(adapter: AdapterUnderTest): void {
  describe.each(sorted)('a list of $name sorted by $field', ({ name, field }) => {
    const { store, tx } = freshStore(adapter);
    const col = (t: StorageTx) => t.collections[name] as unknown as Collection<CollectionName, Row>;

    it('pages through every row once in (sort key, id) order, ascending and descending', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(values[field] as fc.Arbitrary<unknown>, { minLength: 1, maxLength: 9 }),
          fc.integer({ min: 1, max: 4 }),
          fc.constantFrom('asc' as const, 'desc' as const),
          filterOn(name, field),
          fc.constantFrom('read' as const, 'write' as const),
          fc.boolean(),
          async (fieldValues, limit, order, filter, mode, withLabel) => {
            const workspaceId = `wsp_${Math.random().toString(36).slice(2)}`;
            // Issues sorted by a ranked field: every other one carries the label asked for.
            const labelled = withLabel && sortRanks(name, field) !== undefined;
            const rows = fieldValues.map((value, i) =>
              sampleRow(
                name,
                workspaceId,
                // Issue numbers are unique in a project: ties on `number` are across projects.
                {
                  [field]: value,
                  ...(field === 'number' ? { projectId: `prj_${i}` } : {}),
                  ...(labelled ? { labels: i % 2 === 0 ? ['a'] : ['b'] } : {}),
                } as Partial<Row>,
                at(i % 3),
              ),
            );
            for (const row of rows) await tx((t) => col(t).insert(row));
            const matching = rows.filter(
              (row, i) =>
                (filter === undefined ||
                  meetsFilter((row as unknown as Record<string, unknown>)[field], filter)) &&
                (!labelled || i % 2 === 0),
            );
            const keyed = matching.map((row) => ({ key: sortKeyOf(name, field, row), id: row.id }));
            keyed.sort((a, b) => (precedes(a, b) ? -1 : 1));
            if (order === 'desc') keyed.reverse();

            const seen: string[] = [];
            let afterKey: { key: SortKey; id: string } | undefined;
            for (let page = 0; page < 20; page++) {
              const result = await store().transaction(
                (t) =>
                  col(t).list({
                    workspaceId,
                    sort: { field: field as never, order },
                    limit,
                    // Live issues, as the API lists them: the lists PostgreSQL keeps totals of.
                    ...(filter === undefined && !labelled
                      ? {}
                      : {
                          where: {
                            ...(filter === undefined ? {} : { [field]: filter }),
                            ...(name === 'issues' ? { archivedAt: null } : {}),
                          } as never,
                        }),
                    ...(labelled ? { labels: { all: ['a'] } } : {}),
                    ...(afterKey ? { afterKey } : {}),
                  }),
                { mode },
              );
              expect(result.total).toBe(matching.length);
              seen.push(...result.rows.map((row) => row.id));
              const last = result.rows.at(-1);
              if (!last || result.rows.length < limit) break;
              afterKey = { key: sortKeyOf(name, field, last), id: last.id };
            }
            expect(seen).toEqual(keyed.map((k) => k.id));
          },
        ),
        { numRuns: 15 },
      );
    });
  });
}
