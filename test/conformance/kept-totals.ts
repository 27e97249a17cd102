import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Issue, IssueSeverity, IssueStatus, LabelMatch, ListQuery } from '../../src/core/index.js';
import { type AdapterUnderTest, runsOn } from '../support/adapters.js';
import { at, freshStore, sampleRow } from './fixtures.js';

type Where = ListQuery<'issues'>['where'];

const statuses: IssueStatus[] = ['open', 'blocked', 'resolved'];
const severities: IssueSeverity[] = ['low', 'high'];
const projects = ['prj_k1', 'prj_k2'];
const labels = ['x', 'y'];

const shape = fc.record({
  status: fc.constantFrom(...statuses),
  severity: fc.constantFrom(...severities),
  project: fc.constantFrom(...projects),
  labels: fc.subarray(labels),
  archived: fc.boolean(),
});

/** After the inserts: a change of some fields of an issue, or its delete, kept or rolled back. */
const change = fc.record({
  pick: fc.nat(),
  to: fc.option(shape, { nil: undefined }),
  rolledBack: fc.boolean(),
});

/** Filters of one, two or all three of the shared columns (status, severity, project), and none. */
const filters: Where[] = [
  {},
  { status: 'open' },
  { status: ['blocked', 'resolved'] },
  { status: { not: ['open'] } },
  { severity: 'high' },
  { projectId: 'prj_k2' },
  { status: 'open', severity: 'high' },
  { status: ['open', 'blocked'], severity: 'low' },
  { projectId: 'prj_k1', status: 'resolved' },
  { projectId: 'prj_k2', severity: 'low' },
  { projectId: 'prj_k1', status: 'open', severity: 'high' },
  { projectId: ['prj_k1', 'prj_k2'], status: ['open', 'resolved'], severity: 'low' },
  { projectId: 'prj_k2', status: { not: ['open'] }, severity: 'high' },
];

/** Each label match the kept counts answer (one label, one absent), and those they may find empty. */
const labelMatches: (LabelMatch | undefined)[] = [
  undefined,
  { all: ['x'] },
  { none: ['x'] },
  { all: ['absent'] },
  { none: ['absent'] },
  { all: ['x', 'y'] },
  { any: ['x', 'absent'] },
  { any: ['absent'] },
];

/** A filter's value as the port reads it: one value, any of a list, or none of a list. */
const fieldMeets = (value: unknown, wanted: unknown): boolean =>
  Array.isArray(wanted)
    ? wanted.includes(value)
    : wanted !== null && typeof wanted === 'object'
      ? !(wanted as { not: unknown[] }).not.includes(value)
      : value === wanted;

function meets(row: Issue, where: Where, match: LabelMatch | undefined, unarchived: boolean): boolean {
  if (unarchived && row.archivedAt !== null) return false;
  const fields = row as unknown as Record<string, unknown>;
  if (!Object.entries(where ?? {}).every(([field, wanted]) => fieldMeets(fields[field], wanted)))
    return false;
  if (!match) return true;
  return (
    (match.all ?? []).every((label) => row.labels.includes(label)) &&
    (match.any === undefined || match.any.some((label) => row.labels.includes(label))) &&
    !(match.none ?? []).some((label) => row.labels.includes(label))
  );
}

/**
 * Totals that an adapter may keep rather than count (SQLite migration 26: two shared filters, a
 * label with one): exact after changes of every counted field and of the labels, deletes and
 * rolled-back writes, and no page where they say nothing matches.
 */
export function keptTotalTests(adapter: AdapterUnderTest): void {
  describe('totals of two filters, and of a label with a filter', () => {
    const { tx } = freshStore(adapter);

    it('equal what a model counts after changes of status, severity, project and labels, deletes and rollbacks', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(shape, { minLength: 1, maxLength: 20 }),
          fc.array(change, { maxLength: 12 }),
          async (inserts, changes) => {
            const workspaceId = `wsp_${Math.random().toString(36).slice(2)}`;
            const rowOf = (s: (typeof inserts)[number], base: Partial<Issue>) =>
              ({
                ...base,
                status: s.status,
                severity: s.severity,
                projectId: s.project,
                labels: s.labels,
                archivedAt: s.archived ? at(90) : null,
              }) as Partial<Issue>;
            const model = new Map<string, Issue>();
            await tx(async (t) => {
              for (const [i, s] of inserts.entries()) {
                const row = sampleRow('issues', workspaceId, rowOf(s, { number: i + 1 }), at(i));
                await t.collections.issues.insert(row);
                model.set(row.id, row);
              }
            });
            for (const c of changes) {
              const rows = [...model.values()];
              const row = rows[c.pick % rows.length];
              if (!row) break;
              const next = c.to && ({ ...row, ...rowOf(c.to, {}), version: row.version + 1 } as Issue);
              const write = tx(async (t) => {
                if (next) await t.collections.issues.update(next, row.version);
                else await t.collections.issues.deleteWhere(workspaceId, { number: row.number });
                if (c.rolledBack) throw new Error('rolled back');
              });
              if (c.rolledBack) await expect(write).rejects.toThrow('rolled back');
              else {
                await write;
                if (next) model.set(row.id, next);
                else model.delete(row.id);
              }
            }
            for (const where of filters) {
              for (const match of labelMatches) {
                for (const unarchived of [false, true]) {
                  const query = {
                    workspaceId,
                    where: unarchived ? { ...where, archivedAt: null } : where,
                    ...(match ? { labels: match } : {}),
                    limit: 2,
                  };
                  const expected = [...model.values()]
                    .filter((row) => meets(row, where, match, unarchived))
                    .map((row) => row.id)
                    .reverse();
                  const page = await tx((t) => t.collections.issues.list(query));
                  expect({ where, match, unarchived, total: page.total }).toEqual({
                    where,
                    match,
                    unarchived,
                    total: expected.length,
                  });
                  expect(page.rows.map((row) => row.id)).toEqual(expected.slice(0, 2));
                }
              }
            }
          },
        ),
        { numRuns: runsOn(adapter, 25) },
      );
    });
  });
}
