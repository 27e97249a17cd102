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
  });
}
