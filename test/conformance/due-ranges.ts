import { describe, expect, it } from 'vitest';
import type { Issue, ListQuery } from '../../src/core/index.js';
import type { AdapterUnderTest } from '../support/adapters.js';
import { at, freshStore, sampleRow } from './fixtures.js';

/**
 * Bounds on a nullable range field (a due day, an estimate). SQL adapters bound its sort key,
 * where null stands as a value above every other (`~`, a billion): a row without the field must
 * still match no bound, whatever the bound, and the bounds stay inclusive.
 */
export function dueRangeTests(adapter: AdapterUnderTest): void {
  describe('bounds on a due day or an estimate', () => {
    const { tx } = freshStore(adapter);

    it('are inclusive at both ends and never match an issue without the field', async () => {
      const workspaceId = `wsp_${Math.random().toString(36).slice(2)}`;
      const specs: Partial<Issue>[] = [
        { dueOn: '2026-03-01', estimate: 5 },
        { dueOn: '2026-03-02', estimate: null },
        { dueOn: null, estimate: 1_000_000 },
        { dueOn: null, estimate: null },
      ];
      const rows = specs.map((spec, i) =>
        sampleRow('issues', workspaceId, { ...spec, number: i + 1 }, at(i)),
      );
      await tx(async (t) => {
        for (const row of rows) await t.collections.issues.insert(row);
      });
      const numbers = async (range: ListQuery<'issues'>['range']) => {
        const page = await tx((t) =>
          t.collections.issues.list({ workspaceId, range, limit: 10, order: 'asc' }),
        );
        expect(page.total).toBe(page.rows.length);
        return page.rows.map((row) => row.number);
      };
      expect(await numbers({ dueOn: { lte: '2026-03-01' } })).toEqual([1]);
      expect(await numbers({ dueOn: { lte: '2026-02-28' } })).toEqual([]);
      expect(await numbers({ dueOn: { gte: '2026-03-02' } })).toEqual([2]);
      expect(await numbers({ dueOn: { gte: '2026-03-01', lte: '2026-03-02' } })).toEqual([1, 2]);
      expect(await numbers({ dueOn: { gte: '2000-01-01' } })).toEqual([1, 2]);
      // An upper bound past the stand-in of null (`~`) matches every due day, still no missing one.
      expect(await numbers({ dueOn: { lte: '~~' } })).toEqual([1, 2]);
      expect(await numbers({ estimate: { gte: 0 } })).toEqual([1, 3]);
      expect(await numbers({ estimate: { lte: 5 } })).toEqual([1]);
      expect(await numbers({ estimate: { lte: 2_000_000_000 } })).toEqual([1, 3]);
      expect(await numbers({ estimate: { gte: 1_000_000, lte: 1_000_000 } })).toEqual([3]);
    });

    it('page and count a range most issues fall in as one that few do: newest first, each once, exact total', async () => {
      const workspaceId = `wsp_${Math.random().toString(36).slice(2)}`;
      // Past 2,000 rows in a range, SQLite walks the page in creation order (sorted-ranges.ts).
      const rows = Array.from({ length: 2_600 }, (_, i) =>
        sampleRow(
          'issues',
          workspaceId,
          {
            number: i + 1,
            status: i % 3 === 0 ? 'open' : 'closed',
            dueOn: i % 40 === 0 ? null : `2026-0${(i % 9) + 1}-15`,
            archivedAt: i % 97 === 0 ? at(5_000) : null,
          } as Partial<Issue>,
          at(i),
        ),
      );
      await tx(async (t) => {
        for (const row of rows) await t.collections.issues.insert(row);
      });
      const cases: [ListQuery<'issues'>['where'], (row: Issue) => boolean][] = [
        [{ archivedAt: null }, (row) => row.archivedAt === null],
        [{ status: 'open' }, (row) => row.status === 'open'],
        [{}, () => true],
      ];
      for (const [where, match] of cases) {
        const expected = rows
          .filter((row) => match(row) && row.dueOn !== null && row.dueOn <= '2026-08-15')
          .map((row) => row.id)
          .reverse();
        const range = { dueOn: { lte: '2026-08-15' } };
        const first = await tx((t) => t.collections.issues.list({ workspaceId, where, range, limit: 30 }));
        expect({ where, total: first.total }).toEqual({ where, total: expected.length });
        expect(first.rows.map((row) => row.id)).toEqual(expected.slice(0, 30));
        const last = first.rows.at(-1) as Issue;
        const next = await tx((t) =>
          t.collections.issues.list({
            workspaceId,
            where,
            range,
            limit: 30,
            after: { createdAt: last.createdAt, id: last.id },
          }),
        );
        expect(next.total).toBe(expected.length);
        expect(next.rows.map((row) => row.id)).toEqual(expected.slice(30, 60));
        const oldest = await tx((t) =>
          t.collections.issues.list({ workspaceId, where, range, limit: 30, order: 'asc' }),
        );
        expect(oldest.rows.map((row) => row.id)).toEqual([...expected].reverse().slice(0, 30));
      }
    });
  });
}
