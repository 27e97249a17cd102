import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FilterMatch, Issue, IssueStatus } from '../../src/core/index.js';
import { issueStatuses } from '../../src/core/model.js';
import type { AdapterUnderTest } from '../support/adapters.js';
import { at, freshStore, sampleRow } from './fixtures.js';

const assignees = [null, 'usr_f1', 'usr_f2'] as const;
const status = fc.constantFrom(...issueStatuses);
const statusList = fc.uniqueArray(status, { maxLength: 3 });
const assigneeList = fc.uniqueArray(fc.constantFrom<string | null>(null, 'usr_f1', 'usr_f2', 'usr_f3'), {
  maxLength: 2,
});

/** A filter as the API builds it: any of a list (possibly empty), none of a list, or one value. */
const match = <T extends string | null>(list: fc.Arbitrary<T[]>) =>
  fc.oneof(
    list.map((values): FilterMatch => values),
    list.map((values): FilterMatch => ({ not: values })),
    list.filter((values) => values.length > 0).map((values): FilterMatch => values[0] as T),
  );

const meets = (value: string | null, filter: FilterMatch | undefined): boolean => {
  if (filter === undefined) return true;
  if (Array.isArray(filter)) return (filter as readonly (string | null)[]).includes(value);
  if (filter !== null && typeof filter === 'object') {
    return !(filter as { not: readonly (string | null)[] }).not.includes(value);
  }
  return value === filter;
};

/** Filter lists (any of, none of) on enum and id fields: the rows and an exact total. */
export function filterTests(adapter: AdapterUnderTest): void {
  describe('lists filtered by any of / none of a list (null among the values) and updatedBefore', () => {
    const { tx } = freshStore(adapter);

    it('return exactly the rows a model keeps, with the exact total and count, on their own and combined', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(
            fc.record({
              status,
              assignee: fc.constantFrom(...assignees),
              archived: fc.boolean(),
            }),
            { minLength: 1, maxLength: 12 },
          ),
          fc.option(match(statusList), { nil: undefined }),
          fc.option(match(assigneeList), { nil: undefined }),
          fc.boolean(),
          fc.integer({ min: 1, max: 5 }),
          fc.option(fc.integer({ min: 0, max: 12 }), { nil: undefined }),
          async (specs, statusFilter, assigneeFilter, unarchived, limit, before) => {
            const updatedBefore = before === undefined ? undefined : at(before);
            const workspaceId = `wsp_${Math.random().toString(36).slice(2)}`;
            const rows = specs.map((spec, i) =>
              sampleRow(
                'issues',
                workspaceId,
                {
                  status: spec.status as IssueStatus,
                  assigneeId: spec.assignee,
                  archivedAt: spec.archived ? at(50) : null,
                  number: i + 1,
                } as Partial<Issue>,
                at(i),
              ),
            );
            for (const row of rows) await tx((t) => t.collections.issues.insert(row));
            const where = {
              ...(statusFilter === undefined ? {} : { status: statusFilter }),
              ...(assigneeFilter === undefined ? {} : { assigneeId: assigneeFilter }),
              ...(unarchived ? { archivedAt: null } : {}),
            };
            const bounds = updatedBefore === undefined ? {} : { updatedBefore };
            const expected = rows
              .filter(
                (row) =>
                  meets(row.status, statusFilter) &&
                  meets(row.assigneeId, assigneeFilter) &&
                  (!unarchived || row.archivedAt === null) &&
                  (updatedBefore === undefined || row.updatedAt < updatedBefore),
              )
              .map((row) => row.id)
              .reverse();
            const page = await tx((t) => t.collections.issues.list({ workspaceId, where, limit, ...bounds }));
            expect(page.total).toBe(expected.length);
            expect(page.rows.map((row) => row.id)).toEqual(expected.slice(0, limit));
            const sorted = await tx((t) =>
              t.collections.issues.list({
                workspaceId,
                where,
                limit,
                ...bounds,
                sort: { field: 'number', order: 'desc' },
              }),
            );
            expect(sorted.total).toBe(expected.length);
            expect(sorted.rows.map((row) => row.id)).toEqual(expected.slice(0, limit));
            if (updatedBefore === undefined) {
              expect(await tx((t) => t.collections.issues.count(workspaceId, where))).toBe(expected.length);
            }
          },
        ),
        { numRuns: 40 },
      );
    });
  });
}
