import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Issue, IssueStatus, LabelMatch, StorageTx } from '../../src/core/index.js';
import type { AdapterUnderTest } from '../support/adapters.js';
import { at, freshStore, sampleRow } from './fixtures.js';

// Quotes, brackets and backslashes too: PostgreSQL's triggers read the labels from the JSON text.
const alphabet = ['bug', 'ui', 'safari', 'é', '𝔘', 'x,y', 'a"]\\', '[]'] as const;
const labelSet = fc.array(fc.constantFrom(...alphabet), { maxLength: 4 });
const labelList = fc.uniqueArray(fc.constantFrom(...alphabet, 'absent'), { minLength: 1, maxLength: 3 });
const labelMatch: fc.Arbitrary<LabelMatch> = fc
  .record({
    all: fc.option(labelList, { nil: undefined }),
    any: fc.option(labelList, { nil: undefined }),
    none: fc.option(labelList, { nil: undefined }),
  })
  .filter((m) => m.all !== undefined || m.any !== undefined || m.none !== undefined)
  .map((m) => ({
    ...(m.all ? { all: m.all } : {}),
    ...(m.any ? { any: m.any } : {}),
    ...(m.none ? { none: m.none } : {}),
  }));

/** The model's reading of a label filter. */
const meetsLabels = (labels: readonly string[], match: LabelMatch): boolean =>
  (match.all ?? []).every((label) => labels.includes(label)) &&
  (match.any === undefined || match.any.some((label) => labels.includes(label))) &&
  !(match.none ?? []).some((label) => labels.includes(label));

const newWorkspace = () => `wsp_${Math.random().toString(36).slice(2)}`;

/** The labels of the workspace and their counts, as a model counts them: code point order. */
function modelLabels(rows: readonly Issue[]) {
  const counts = new Map<string, number>();
  for (const row of rows)
    for (const label of new Set(row.labels)) counts.set(label, (counts.get(label) ?? 0) + 1);
  const names = [...counts.keys()].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  return names.map((name) => ({ name, issueCount: counts.get(name) as number }));
}

async function allLabels(tx: StorageTx, workspaceId: string, limit: number) {
  const seen: { name: string; issueCount: number }[] = [];
  const totals = new Set<number>();
  let after: string | undefined;
  for (;;) {
    const page = await tx.labels.list({ workspaceId, limit, ...(after === undefined ? {} : { after }) });
    totals.add(page.total);
    expect(totals.size).toBe(1);
    seen.push(...page.rows);
    if (page.rows.length < limit) return { labels: seen, total: page.total };
    after = page.rows.at(-1)?.name;
  }
}

/** Label filters (every one of / any of) and the workspace's labels with their counts. */
export function labelTests(adapter: AdapterUnderTest): void {
  describe('issues filtered by labels, and the labels of a workspace', () => {
    const { store, tx } = freshStore(adapter);

    it('return exactly the issues a model keeps, with the exact total, alone and with other filters, in every order', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(
            fc.record({
              labels: labelSet,
              relabel: fc.option(labelSet, { nil: undefined }),
              status: fc.constantFrom<IssueStatus>('open', 'closed'),
              archived: fc.boolean(),
            }),
            { minLength: 1, maxLength: 40 },
          ),
          labelMatch,
          fc.option(fc.constantFrom<IssueStatus>('open', 'closed'), { nil: undefined }),
          fc.boolean(),
          fc.integer({ min: 1, max: 6 }),
          async (specs, labels, status, unarchived, limit) => {
            const workspaceId = newWorkspace();
            let rows = specs.map((spec, i) =>
              sampleRow(
                'issues',
                workspaceId,
                {
                  labels: spec.labels,
                  status: spec.status,
                  archivedAt: spec.archived ? at(50) : null,
                  number: i + 1,
                } as Partial<Issue>,
                at(i),
              ),
            );
            await tx(async (t) => {
              for (const row of rows) await t.collections.issues.insert(row);
            });
            // Some change their labels: the index follows updates.
            rows = await tx(async (t) => {
              const updated: Issue[] = [];
              for (const [i, row] of rows.entries()) {
                const relabel = specs[i]?.relabel;
                if (relabel === undefined) updated.push(row);
                else {
                  const next = { ...row, labels: relabel, version: row.version + 1, updatedAt: at(60) };
                  await t.collections.issues.update(next, row.version);
                  updated.push(next);
                }
              }
              return updated;
            });
            const where = {
              ...(status === undefined ? {} : { status }),
              ...(unarchived ? { archivedAt: null } : {}),
            };
            const expected = rows
              .filter(
                (row) =>
                  meetsLabels(row.labels, labels) &&
                  (status === undefined || row.status === status) &&
                  (!unarchived || row.archivedAt === null),
              )
              .map((row) => row.id)
              .reverse();
            const page = await tx((t) => t.collections.issues.list({ workspaceId, where, labels, limit }));
            expect(page.total).toBe(expected.length);
            expect(page.rows.map((row) => row.id)).toEqual(expected.slice(0, limit));
            // In a read, as the API lists: an adapter may read counts it keeps there.
            const read = await store().transaction(
              (t) => t.collections.issues.list({ workspaceId, where, labels, limit }),
              { mode: 'read' },
            );
            expect(read.total).toBe(expected.length);
            expect(read.rows.map((row) => row.id)).toEqual(expected.slice(0, limit));
            const oldest = await tx((t) =>
              t.collections.issues.list({ workspaceId, where, labels, limit, order: 'asc' }),
            );
            expect(oldest.rows.map((row) => row.id)).toEqual([...expected].reverse().slice(0, limit));
            const sorted = await tx((t) =>
              t.collections.issues.list({
                workspaceId,
                where,
                labels,
                limit,
                sort: { field: 'number', order: 'desc' },
              }),
            );
            expect(sorted.total).toBe(expected.length);
            expect(sorted.rows.map((row) => row.id)).toEqual(expected.slice(0, limit));
            // Paged through from a keyset position: each match once.
            const last = page.rows.at(-1);
            if (last) {
              const rest = await tx((t) =>
                t.collections.issues.list({
                  workspaceId,
                  where,
                  labels,
                  limit: 100,
                  after: { createdAt: last.createdAt, id: last.id },
                }),
              );
              expect(rest.rows.map((row) => row.id)).toEqual(expected.slice(page.rows.length));
            }
            const listed = await tx((t) => allLabels(t, workspaceId, 2));
            expect(listed.labels).toEqual(modelLabels(rows));
            expect(listed.total).toBe(modelLabels(rows).length);
            const listedInRead = await store().transaction((t) => allLabels(t, workspaceId, 2), {
              mode: 'read',
            });
            expect(listedInRead).toEqual(listed);
          },
        ),
        { numRuns: 30 },
      );
    });

    it('finds the issues of a rare label and of a common one among many, with exact totals', async () => {
      const workspaceId = newWorkspace();
      const rows = Array.from({ length: 120 }, (_, i) =>
        sampleRow(
          'issues',
          workspaceId,
          {
            number: i + 1,
            labels: [...(i % 2 === 0 ? ['common'] : []), ...(i === 7 || i === 100 ? ['rare'] : [])],
            archivedAt: i === 100 || i === 4 ? at(500) : null,
          } as Partial<Issue>,
          at(i),
        ),
      );
      await tx(async (t) => {
        for (const row of rows) await t.collections.issues.insert(row);
      });
      const ids = (match: (row: Issue) => boolean) =>
        rows
          .filter(match)
          .map((row) => row.id)
          .reverse();
      const cases: [LabelMatch, (row: Issue) => boolean][] = [
        [{ all: ['rare'] }, (row) => row.labels.includes('rare')],
        [{ all: ['common'] }, (row) => row.labels.includes('common')],
        [{ all: ['common', 'rare'] }, (row) => row.labels.includes('common') && row.labels.includes('rare')],
        [{ any: ['rare', 'common'] }, (row) => row.labels.length > 0],
        [
          { any: ['rare'], all: ['common'] },
          (row) => row.labels.includes('common') && row.labels.includes('rare'),
        ],
      ];
      for (const [labels, match] of cases) {
        for (const unarchived of [false, true]) {
          const expected = ids((row) => match(row) && (!unarchived || row.archivedAt === null));
          const where = unarchived ? { archivedAt: null } : {};
          const page = await tx((t) => t.collections.issues.list({ workspaceId, labels, where, limit: 5 }));
          expect({ labels, unarchived, total: page.total }).toEqual({
            labels,
            unarchived,
            total: expected.length,
          });
          expect(page.rows.map((row) => row.id)).toEqual(expected.slice(0, 5));
          const sorted = await tx((t) =>
            t.collections.issues.list({
              workspaceId,
              labels,
              where,
              limit: 5,
              sort: { field: 'number', order: 'asc' },
            }),
          );
          expect(sorted.rows.map((row) => row.id)).toEqual([...expected].reverse().slice(0, 5));
        }
      }
    });

    it('counts each label once per issue, forgets a deleted issue, and keeps nothing of a rolled-back write', async () => {
      const workspaceId = newWorkspace();
      const twice = sampleRow(
        'issues',
        workspaceId,
        { labels: ['dup', 'dup', 'b'], number: 1 } as Partial<Issue>,
        at(1),
      );
      const other = sampleRow('issues', workspaceId, { labels: ['b'], number: 2 } as Partial<Issue>, at(2));
      await tx(async (t) => {
        await t.collections.issues.insert(twice);
        await t.collections.issues.insert(other);
      });
      expect((await tx((t) => t.labels.list({ workspaceId, limit: 10 }))).rows).toEqual([
        { name: 'b', issueCount: 2 },
        { name: 'dup', issueCount: 1 },
      ]);
      const page = await tx((t) =>
        t.collections.issues.list({ workspaceId, labels: { all: ['dup'] }, limit: 10 }),
      );
      expect(page.rows.map((row) => row.id)).toEqual([twice.id]);

      await expect(
        tx(async (t) => {
          await t.collections.issues.insert(
            sampleRow('issues', workspaceId, { labels: ['ghost'], number: 3 } as Partial<Issue>),
          );
          await t.collections.issues.update({ ...other, labels: [], version: 2 }, 1);
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      expect((await tx((t) => t.labels.list({ workspaceId, limit: 10 }))).rows).toEqual([
        { name: 'b', issueCount: 2 },
        { name: 'dup', issueCount: 1 },
      ]);

      await tx((t) => t.collections.issues.deleteWhere(workspaceId, { number: twice.number }));
      expect(await tx((t) => t.labels.list({ workspaceId, limit: 10 }))).toEqual({
        rows: [{ name: 'b', issueCount: 1 }],
        total: 1,
      });
      expect(await tx((t) => t.labels.list({ workspaceId: newWorkspace(), limit: 10 }))).toEqual({
        rows: [],
        total: 0,
      });
    });
  });
}
