import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type Collection,
  type CollectionName,
  type CollectionRows,
  collectionDefinitions,
  type Issue,
  type ListQuery,
  type StorageTx,
} from '../../src/core/index.js';
import type { AdapterUnderTest } from '../support/adapters.js';
import { at, freshStore, macrotask, sampleRow, settle } from './fixtures.js';

const names = Object.keys(collectionDefinitions) as CollectionName[];

/** Generic collection behaviour, on every collection. */
export function collectionTests(adapter: AdapterUnderTest): void {
  describe('an issue serialized as stored', () => {
    const { tx } = freshStore(adapter);
    // Text that JSON escapes (quotes, backslashes, control characters, lone surrogates) or does not
    // (line separators, astral characters): the stored text must come back exactly as
    // JSON.stringify writes it, whatever the adapter does to cut the workspace out.
    const awkward = fc
      .array(
        fc.oneof(
          fc.constantFrom('"', '\\', '\n', '\u0000', '\u001f', '\u2028', '\ud800', '\udfff', '😀', 'é', '</'),
          fc.string({ unit: 'binary', maxLength: 8 }),
        ),
        { maxLength: 12 },
      )
      .map((parts) => parts.join(''));

    it('is byte for byte JSON.stringify of the row without its workspace, for any text', async () => {
      await fc.assert(
        fc.asyncProperty(
          awkward,
          awkward,
          fc.array(awkward, { maxLength: 3 }),
          fc.boolean(),
          async (title, description, labels, textGiven) => {
            const issue = sampleRow('issues', 'wsp_1', { title, description, labels });
            // With the row's text made by the caller (a create's: insertAndAnnounce) or without.
            const text = textGiven ? JSON.stringify(issue) : undefined;
            await tx((t) => t.collections.issues.insert(issue, text));
            const { workspaceId: _hidden, ...shown } = issue;
            const stored = await tx((t) => t.collections.issues.getJson('wsp_1', issue.id));
            expect(stored).toEqual({ json: JSON.stringify(shown), version: 1 });
            expect(await tx((t) => t.collections.issues.get('wsp_1', issue.id))).toEqual(issue);
          },
        ),
        { numRuns: 40 },
      );
    });
  });

  describe.each(names)('the %s collection', (name) => {
    const { tx } = freshStore(adapter);
    // The collection seen through the union of all row types, so one test body fits all six.
    type Row = CollectionRows[CollectionName];
    const col = (t: StorageTx) => t.collections[name] as unknown as Collection<CollectionName, Row>;
    const row = (overrides: Partial<Row> = {}, createdAt = at(0)): Row =>
      sampleRow(name, 'wsp_1', overrides, createdAt);
    const insert = (r: Row) => tx((t) => col(t).insert(r));
    const update = (r: Row, expected: number) => tx((t) => col(t).update(r, expected));

    it('returns an inserted row equal to what was inserted, as a copy', async () => {
      const r = row();
      await insert(r);
      const got = await tx((t) => col(t).get('wsp_1', r.id));
      expect(got).toEqual(r);
      (got as { id: string }).id = 'changed';
      expect(await tx((t) => col(t).get('wsp_1', r.id))).toEqual(r);
    });

    it('serializes a row as the API shows it: JSON.stringify of it without workspaceId, with its version', async () => {
      const r = row();
      await insert(r);
      const { workspaceId: _hidden, ...shown } = r as Row & { workspaceId: string };
      expect(await tx((t) => col(t).getJson('wsp_1', r.id))).toEqual({
        json: JSON.stringify(shown),
        version: r.version,
      });
      await update({ ...r, version: 2 }, 1);
      expect((await tx((t) => col(t).getJson('wsp_1', r.id)))?.version).toBe(2);
      expect(await tx((t) => col(t).getJson('wsp_2', r.id))).toBeNull();
      expect(await tx((t) => col(t).getJson('wsp_1', 'missing'))).toBeNull();
    });

    it(`refuses a second row with the same id as UniqueViolation('${name}.id')`, async () => {
      const r = row();
      await insert(r);
      await expect(insert({ ...row(), id: r.id })).rejects.toMatchObject({
        name: 'UniqueViolation',
        what: `${name}.id`,
      });
    });

    it('does not find another workspace’s row by get, findOne, count, list or delete', async () => {
      const r = row();
      await insert(r);
      await tx(async (t) => {
        expect(await col(t).get('wsp_2', r.id)).toBeNull();
        expect(await col(t).findOne('wsp_2', {})).toBeNull();
        expect(await col(t).count('wsp_2', {})).toBe(0);
        expect(await col(t).list({ workspaceId: 'wsp_2', limit: 10 })).toEqual({ rows: [], total: 0 });
        expect(await col(t).delete('wsp_2', r.id)).toBe(false);
        expect(await col(t).deleteWhere('wsp_2', {})).toEqual([]);
        expect(await col(t).get('wsp_1', r.id)).toEqual(r);
      });
    });

    it('replaces a row whose version is the expected one', async () => {
      const r = row();
      await insert(r);
      const changed = { ...r, updatedAt: at(10), version: 2 };
      await update(changed, 1);
      expect(await tx((t) => col(t).get('wsp_1', r.id))).toEqual(changed);
    });

    it('refuses an update expecting a stale version with VersionMismatch carrying the current one', async () => {
      const r = row();
      await insert(r);
      await update({ ...r, version: 2 }, 1);
      await expect(update({ ...r, version: 2 }, 1)).rejects.toMatchObject({
        name: 'VersionMismatch',
        current: 2,
      });
    });

    it('refuses an update of a missing row, or of another workspace’s, with VersionMismatch(null)', async () => {
      const r = row();
      await expect(update(r, 1)).rejects.toMatchObject({ name: 'VersionMismatch', current: null });
      await insert(r);
      await expect(update({ ...r, workspaceId: 'wsp_2' }, 1)).rejects.toMatchObject({
        name: 'VersionMismatch',
        current: null,
      });
      expect(await tx((t) => col(t).get('wsp_1', r.id))).toEqual(r);
    });

    it('lets exactly one of ten concurrent updates expecting the same version succeed', async () => {
      const r = row();
      await insert(r);
      const { fulfilled, rejected } = await settle(
        Array.from({ length: 10 }, (_, i) =>
          tx(async (t) => {
            await macrotask();
            await col(t).update({ ...r, updatedAt: at(i + 1), version: 2 }, 1);
            return i;
          }),
        ),
      );
      expect(fulfilled).toHaveLength(1);
      expect(rejected).toHaveLength(9);
      for (const error of rejected) expect(error).toMatchObject({ name: 'VersionMismatch', current: 2 });
      const stored = await tx((t) => col(t).get('wsp_1', r.id));
      expect(stored?.updatedAt).toBe(at((fulfilled[0] ?? -1) + 1));
    });

    it('deletes a row once', async () => {
      const r = row();
      await insert(r);
      expect(await tx((t) => col(t).delete('wsp_1', r.id))).toBe(true);
      expect(await tx((t) => col(t).delete('wsp_1', r.id))).toBe(false);
      expect(await tx((t) => col(t).get('wsp_1', r.id))).toBeNull();
    });

    it('orders a list newest first, equal creation times by id descending', async () => {
      const rows = [row({}, at(1)), row({}, at(2)), row({}, at(2)), row({}, at(2)), row({}, at(0))];
      for (const r of rows) await insert(r);
      const listed = await tx((t) => col(t).list({ workspaceId: 'wsp_1', limit: 10 }));
      const expected = [...rows].sort((a, b) =>
        a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1,
      );
      expect(listed.rows.map((r) => r.id)).toEqual(expected.map((r) => r.id));
      expect(listed.total).toBe(5);
    });

    it("orders a list oldest first with order 'asc', equal times by id ascending, and pages on after the cursor", async () => {
      const rows = [row({}, at(1)), row({}, at(2)), row({}, at(2)), row({}, at(2)), row({}, at(0))];
      for (const r of rows) await insert(r);
      const expected = [...rows]
        .sort((a, b) =>
          a.createdAt === b.createdAt ? (a.id < b.id ? -1 : 1) : a.createdAt < b.createdAt ? -1 : 1,
        )
        .map((r) => r.id);
      const seen: string[] = [];
      let after: { createdAt: string; id: string } | undefined;
      for (let page = 0; page < 5; page++) {
        const result = await tx((t) =>
          col(t).list({ workspaceId: 'wsp_1', order: 'asc', limit: 2, ...(after ? { after } : {}) }),
        );
        expect(result.total).toBe(5);
        seen.push(...result.rows.map((r) => r.id));
        const last = result.rows.at(-1);
        if (!last || result.rows.length < 2) break;
        after = { createdAt: last.createdAt, id: last.id };
      }
      expect(seen).toEqual(expected);
    });

    it('visits every row exactly once when paging with `after`, even with inserts between pages', async () => {
      const original: Row[] = [];
      for (let i = 0; i < 23; i++) original.push(row({}, at(i % 4)));
      for (const r of original) await insert(r);
      const seen: string[] = [];
      let after: { createdAt: string; id: string } | undefined;
      for (let page = 0; page < 20; page++) {
        const result = await tx((t) =>
          col(t).list({ workspaceId: 'wsp_1', limit: 4, ...(after ? { after } : {}) }),
        );
        expect(result.rows.length).toBeLessThanOrEqual(4);
        seen.push(...result.rows.map((r) => r.id));
        // A newer row (before the cursor) and an older one (after it) arrive between pages.
        await insert(row({}, at(100 + page)));
        await insert(row({}, at(-100 - page)));
        const last = result.rows.at(-1);
        if (!last) break;
        after = { createdAt: last.createdAt, id: last.id };
      }
      expect(new Set(seen).size).toBe(seen.length);
      for (const r of original) expect(seen).toContain(r.id);
    });

    it('counts every match in `total`, ignoring `after` and `limit`', async () => {
      for (let i = 0; i < 7; i++) await insert(row({}, at(i)));
      const first = await tx((t) => col(t).list({ workspaceId: 'wsp_1', limit: 3 }));
      expect(first.total).toBe(7);
      const last = first.rows.at(-1) as Row;
      const second = await tx((t) =>
        col(t).list({ workspaceId: 'wsp_1', limit: 3, after: { createdAt: last.createdAt, id: last.id } }),
      );
      expect(second.rows.map((r) => r.createdAt)).toEqual([at(3), at(2), at(1)]);
      expect(second.total).toBe(7);
    });

    it('bounds a list by createdAfter (inclusive), createdBefore (exclusive) and updatedSince (inclusive)', async () => {
      for (let i = 0; i < 6; i++) await insert(row({ updatedAt: at(10 + i) } as Partial<Row>, at(i)));
      const created = await tx((t) =>
        col(t).list({ workspaceId: 'wsp_1', limit: 10, createdAfter: at(1), createdBefore: at(4) }),
      );
      expect(created.rows.map((r) => r.createdAt)).toEqual([at(3), at(2), at(1)]);
      expect(created.total).toBe(3);
      const updated = await tx((t) => col(t).list({ workspaceId: 'wsp_1', limit: 10, updatedSince: at(14) }));
      expect(updated.rows.map((r) => r.updatedAt)).toEqual([at(15), at(14)]);
    });

    it('counts, finds and deletes by equality on its filter fields', async () => {
      const field = collectionDefinitions[name].filters[0] as string;
      const a = row();
      const b = row();
      const value = (a as unknown as Record<string, unknown>)[field];
      // Give b a different value of the first filter field (a string or a number).
      const other = typeof value === 'number' ? value + 1000 : `${String(value)}-other`;
      const bChanged = { ...b, [field]: other } as Row;
      await insert(a);
      await insert(bChanged);
      await tx(async (t) => {
        const where = { [field]: value } as ListQuery<CollectionName>['where'];
        expect(await col(t).count('wsp_1', where)).toBe(1);
        expect((await col(t).findOne('wsp_1', where))?.id).toBe(a.id);
        expect((await col(t).list({ workspaceId: 'wsp_1', where, limit: 10 })).rows).toEqual([a]);
        expect(await col(t).deleteWhere('wsp_1', where)).toEqual([a]);
        expect(await col(t).count('wsp_1', {})).toBe(1);
      });
    });
  });

  describe('collection specifics', () => {
    const { tx } = freshStore(adapter);

    it('matches null in `where` against null fields only', async () => {
      const linked = sampleRow('issues', 'wsp_1', { outcomeId: 'out_1' });
      const unlinked = sampleRow('issues', 'wsp_1', { outcomeId: null });
      await tx(async (t) => {
        await t.collections.issues.insert(linked);
        await t.collections.issues.insert(unlinked);
      });
      await tx(async (t) => {
        const issues = t.collections.issues;
        expect(
          (await issues.list({ workspaceId: 'wsp_1', where: { outcomeId: null }, limit: 10 })).rows,
        ).toEqual([unlinked]);
        expect(await issues.count('wsp_1', { outcomeId: 'out_1' })).toBe(1);
        expect(await issues.count('wsp_1', { outcomeId: null, status: 'open' })).toBe(1);
        expect(await issues.count('wsp_1', { outcomeId: undefined })).toBe(2);
        expect((await issues.findOne('wsp_1', { outcomeId: null }))?.id).toBe(unlinked.id);
      });
    });

    it('lists and counts rows where a notNull field is null or set, alone or with filters, through archives and unarchives', async () => {
      const rows = Array.from({ length: 12 }, (_, i) =>
        sampleRow(
          'issues',
          'wsp_1',
          { status: i % 3 === 0 ? 'closed' : 'open', archivedAt: i % 4 === 0 ? at(100 + i) : null },
          at(i),
        ),
      );
      await tx(async (t) => {
        for (const row of rows) await t.collections.issues.insert(row);
        await t.collections.issues.insert(sampleRow('issues', 'wsp_2', { archivedAt: at(5) }));
      });
      const check = async () => {
        const expectList = async (
          query: { where?: Record<string, string | null>; notNull?: readonly 'archivedAt'[] },
          keep: (row: (typeof rows)[number]) => boolean,
        ) => {
          const expected = rows
            .filter(keep)
            .map((r) => r.id)
            .reverse();
          for (const limit of [3, 50]) {
            const listed = await tx((t) =>
              t.collections.issues.list({ workspaceId: 'wsp_1', limit, ...query } as never),
            );
            expect(listed.total).toBe(expected.length);
            expect(listed.rows.map((r) => r.id)).toEqual(expected.slice(0, limit));
          }
        };
        const current = await tx(async (t) => {
          const out = [];
          for (const r of rows)
            out.push((await t.collections.issues.get('wsp_1', r.id)) as (typeof rows)[number]);
          return out;
        });
        rows.splice(0, rows.length, ...current);
        await expectList({ where: { archivedAt: null } }, (r) => r.archivedAt === null);
        await expectList(
          { where: { archivedAt: null, status: 'open' } },
          (r) => r.archivedAt === null && r.status === 'open',
        );
        await expectList({ notNull: ['archivedAt'] }, (r) => r.archivedAt !== null);
        await expectList(
          { where: { status: 'closed' }, notNull: ['archivedAt'] },
          (r) => r.archivedAt !== null && r.status === 'closed',
        );
        expect(
          await tx((t) => t.collections.issues.count('wsp_1', { archivedAt: null, status: 'closed' })),
        ).toBe(rows.filter((r) => r.archivedAt === null && r.status === 'closed').length);
      };
      await check();
      // Unarchive one, archive another: the indexes of set rows follow.
      await tx(async (t) => {
        const [first, second] = [rows[0], rows[1]] as [(typeof rows)[number], (typeof rows)[number]];
        await t.collections.issues.update({ ...first, archivedAt: null, version: 2 }, 1);
        await t.collections.issues.update({ ...second, archivedAt: at(200), version: 2 }, 1);
      });
      await check();
    });

    it('sums a numeric field over every match, not just the page, within inclusive ranges', async () => {
      const dates = ['2026-11-01', '2026-11-02', '2026-11-03', '2026-11-04', '2026-11-05'];
      await tx(async (t) => {
        for (const [i, date] of dates.entries()) {
          await t.collections.timeEntries.insert(
            sampleRow('timeEntries', 'wsp_1', { date, minutes: 10 * (i + 1) }, at(i)),
          );
        }
        await t.collections.timeEntries.insert(sampleRow('timeEntries', 'wsp_2', { minutes: 999 }));
      });
      const result = await tx((t) =>
        t.collections.timeEntries.list({
          workspaceId: 'wsp_1',
          range: { date: { gte: '2026-11-02', lte: '2026-11-04' } },
          sum: 'minutes',
          limit: 1,
        }),
      );
      expect(result.rows.map((r) => r.date)).toEqual(['2026-11-04']);
      expect(result.total).toBe(3);
      expect(result.sum).toBe(20 + 30 + 40);
      const none = await tx((t) =>
        t.collections.timeEntries.list({
          workspaceId: 'wsp_1',
          range: { date: { gte: '2027-01-01' } },
          sum: 'minutes',
          limit: 10,
        }),
      );
      expect(none).toEqual({ rows: [], total: 0, sum: 0 });
    });

    it('lists the same page without a count when the caller needs none (withoutTotal): its total is then the page’s length', async () => {
      await tx(async (t) => {
        for (let i = 0; i < 5; i++) {
          await t.collections.issues.insert(
            sampleRow('issues', 'wsp_1', { status: i % 2 ? 'blocked' : 'open', archivedAt: null }, at(i)),
          );
        }
      });
      const query = {
        workspaceId: 'wsp_1',
        where: { status: 'blocked' as const, archivedAt: null },
        limit: 1,
      };
      const counted = await tx((t) => t.collections.issues.list(query));
      const uncounted = await tx((t) => t.collections.issues.list({ ...query, withoutTotal: true }));
      expect(counted.total).toBe(2);
      expect(uncounted).toEqual({ rows: counted.rows, total: 1 });
    });

    it('keeps project keys unique per workspace', async () => {
      await tx((t) => t.collections.projects.insert(sampleRow('projects', 'wsp_1', { key: 'APO' })));
      await expect(
        tx((t) => t.collections.projects.insert(sampleRow('projects', 'wsp_1', { key: 'APO' }))),
      ).rejects.toMatchObject({ name: 'UniqueViolation', what: 'project.key' });
      await tx((t) => t.collections.projects.insert(sampleRow('projects', 'wsp_2', { key: 'APO' })));
      const other = sampleRow('projects', 'wsp_1', { key: 'BET' });
      await tx((t) => t.collections.projects.insert(other));
      await expect(
        tx((t) => t.collections.projects.update({ ...other, key: 'APO', version: 2 }, 1)),
      ).rejects.toMatchObject({ name: 'UniqueViolation', what: 'project.key' });
    });

    it('keeps issue numbers unique per project', async () => {
      const first = sampleRow('issues', 'wsp_1', { projectId: 'prj_a', number: 1 });
      await tx((t) => t.collections.issues.insert(first));
      await expect(
        tx((t) =>
          t.collections.issues.insert(sampleRow('issues', 'wsp_1', { projectId: 'prj_a', number: 1 })),
        ),
      ).rejects.toMatchObject({ name: 'UniqueViolation', what: 'issue.number' });
      await tx((t) =>
        t.collections.issues.insert(sampleRow('issues', 'wsp_1', { projectId: 'prj_b', number: 1 })),
      );
      expect(await tx((t) => t.collections.issues.count('wsp_1', { number: 1 }))).toBe(2);
    });
  });

  describe('search', () => {
    const { tx } = freshStore(adapter);
    const texts: [string, string | null][] = [
      ['Login fails on Safari', null],
      ['Checkout is SLOW', 'Takes 100% of the CPU'],
      ['snake_case_name breaks', 'and so does 50%_off'],
      ["O'Brien can't log in", 'Quote "exactly" this'],
      ['Use A OR B', 'NEAR(a b) and star* syntax'],
      ['Ünïcödé title', 'back\\slash path'],
      ['ab', 'x'],
    ];
    const needles = [
      'login',
      'SAFARI',
      'lo',
      's',
      'slow',
      '100%',
      '%',
      '%_',
      '_',
      'e_c',
      "o'b",
      "'",
      '"exactly"',
      '"',
      'a or b',
      'OR',
      'near(',
      'NEAR(a',
      'star*',
      '*',
      'ünï',
      '\\',
      'k\\s',
      'nothing like this',
      'ab',
    ];

    const seed = async () => {
      const rows: Issue[] = texts.map(([title, description], i) =>
        sampleRow('issues', 'wsp_1', { title, description }, at(i)),
      );
      await tx(async (t) => {
        for (const r of rows) await t.collections.issues.insert(r);
        await t.collections.issues.insert(sampleRow('issues', 'wsp_2', { title: 'Login fails elsewhere' }));
      });
      return rows;
    };

    it.each(needles)('finds exactly the rows containing %j, case-insensitively', async (needle) => {
      const rows = await seed();
      const wanted = needle.toLowerCase();
      const expected = rows
        .filter((r) => [r.title, r.description].some((v) => v?.toLowerCase().includes(wanted)))
        .map((r) => r.id)
        .reverse();
      const result = await tx((t) =>
        t.collections.issues.list({ workspaceId: 'wsp_1', search: needle, limit: 50 }),
      );
      expect(result.rows.map((r) => r.id)).toEqual(expected);
      expect(result.total).toBe(expected.length);
    });

    it('combines search with filters, paging and totals', async () => {
      const rows = await seed();
      const target = rows[1] as Issue;
      await tx((t) => t.collections.issues.update({ ...target, status: 'blocked', version: 2 }, 1));
      const result = await tx((t) =>
        t.collections.issues.list({ workspaceId: 'wsp_1', search: 'S', where: { status: 'open' }, limit: 2 }),
      );
      expect(result.rows.every((r) => r.status === 'open')).toBe(true);
      expect(result.rows.map((r) => r.id)).not.toContain(target.id);
      expect(result.total).toBeGreaterThan(result.rows.length);
    });

    it('finds a row by its new text after an update, and not by its old text', async () => {
      const [first] = await seed();
      const row = first as Issue;
      await tx((t) => t.collections.issues.update({ ...row, title: 'Renamed entirely', version: 2 }, 1));
      const search = (needle: string) =>
        tx((t) => t.collections.issues.list({ workspaceId: 'wsp_1', search: needle, limit: 50 }));
      expect((await search('renamed')).rows.map((r) => r.id)).toEqual([row.id]);
      expect((await search('safari')).rows).toEqual([]);
      await tx((t) => t.collections.issues.delete('wsp_1', row.id));
      expect((await search('renamed')).rows).toEqual([]);
    });

    it('sees, within one transaction, the rows that transaction inserted, changed or deleted', async () => {
      const seen = await tx(async (t) => {
        const search = async (needle: string) =>
          (await t.collections.issues.list({ workspaceId: 'wsp_1', search: needle, limit: 50 })).rows.map(
            (r) => r.id,
          );
        const row = sampleRow('issues', 'wsp_1', { title: 'Freshly written words' });
        await t.collections.issues.insert(row);
        const afterInsert = await search('freshly');
        await t.collections.issues.update({ ...row, title: 'Rewritten words', version: 2 }, 1);
        const afterUpdate = [await search('freshly'), await search('rewritten')];
        await t.collections.issues.delete('wsp_1', row.id);
        return { id: row.id, afterInsert, afterUpdate, afterDelete: await search('rewritten') };
      });
      expect(seen.afterInsert).toEqual([seen.id]);
      expect(seen.afterUpdate).toEqual([[], [seen.id]]);
      expect(seen.afterDelete).toEqual([]);
    });

    it('leaves no search entry behind for the rows of a rolled-back transaction', async () => {
      await tx(async (t) => {
        await t.collections.issues.insert(sampleRow('issues', 'wsp_1', { title: 'Never committed' }));
        throw new Error('roll back');
      }).catch(() => {});
      const found = await tx((t) =>
        t.collections.issues.list({ workspaceId: 'wsp_1', search: 'never', limit: 5 }),
      );
      expect(found.rows).toEqual([]);
    });

    it('searches project names and descriptions', async () => {
      const apollo = sampleRow('projects', 'wsp_1', { name: 'Apollo', description: 'Moon landing' });
      const gemini = sampleRow('projects', 'wsp_1', { name: 'Gemini', description: null });
      await tx(async (t) => {
        await t.collections.projects.insert(apollo);
        await t.collections.projects.insert(gemini);
      });
      const search = (needle: string) =>
        tx((t) => t.collections.projects.list({ workspaceId: 'wsp_1', search: needle, limit: 10 }));
      expect((await search('MOON')).rows).toEqual([apollo]);
      expect((await search('gem')).rows).toEqual([gemini]);
    });
  });
}
