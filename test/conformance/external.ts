import { describe, expect, it } from 'vitest';
import type { ExternalRef, Issue } from '../../src/core/index.js';
import type { AdapterUnderTest } from '../support/adapters.js';
import { at, freshStore, sampleRow } from './fixtures.js';

const jira = (id: string, url?: string): ExternalRef => ({ source: 'jira', id, ...(url ? { url } : {}) });

/** Issues imported from another tracker: filtered by their external id and source, one a (source, id). */
export function externalTests(adapter: AdapterUnderTest): void {
  describe("an issue's external reference (where it was imported from)", () => {
    const { tx } = freshStore(adapter);
    const issue = (workspaceId: string, external: ExternalRef | null, n: number): Issue =>
      sampleRow('issues', workspaceId, { projectId: 'prj_x', number: n, external }, at(n));

    it('is kept as given, url and all, and a list filters by its id, its source or both', async () => {
      const rows = [
        issue('wsp_1', jira('SHOP-101', 'https://acme.atlassian.net/browse/SHOP-101'), 1),
        issue('wsp_1', jira('SHOP-102'), 2),
        issue('wsp_1', { source: 'linear', id: 'SHOP-101' }, 3),
        issue('wsp_1', null, 4),
        issue('wsp_2', jira('SHOP-101'), 5),
      ];
      for (const row of rows) await tx((t) => t.collections.issues.insert(row));
      expect(await tx((t) => t.collections.issues.get('wsp_1', rows[0]?.id ?? ''))).toEqual(rows[0]);
      const list = (where: Record<string, string | null>) =>
        tx((t) => t.collections.issues.list({ workspaceId: 'wsp_1', where, limit: 10, order: 'asc' }));
      const ids = (result: { rows: Issue[] }) => result.rows.map((row) => row.id);

      const byId = await list({ 'external.id': 'SHOP-101' });
      expect(ids(byId)).toEqual([rows[0]?.id, rows[2]?.id]);
      expect(byId.total).toBe(2);
      const both = await list({ 'external.id': 'SHOP-101', 'external.source': 'jira' });
      expect(ids(both)).toEqual([rows[0]?.id]);
      expect(both.total).toBe(1);
      const bySource = await list({ 'external.source': 'jira' });
      expect(ids(bySource)).toEqual([rows[0]?.id, rows[1]?.id]);
      expect(bySource.total).toBe(2);
      expect((await list({ 'external.id': 'SHOP-999' })).total).toBe(0);
      expect(
        await tx((t) =>
          t.collections.issues.findOne('wsp_1', { 'external.source': 'jira', 'external.id': 'SHOP-102' }),
        ),
      ).toEqual(rows[1]);
      expect(await tx((t) => t.collections.issues.count('wsp_1', { 'external.id': null }))).toBe(1);
    });

    it("refuses a second issue of the workspace with the same source and id as UniqueViolation('issue.external'), on insert and on update", async () => {
      await tx((t) => t.collections.issues.insert(issue('wsp_1', jira('SHOP-7'), 1)));
      await expect(
        tx((t) => t.collections.issues.insert(issue('wsp_1', jira('SHOP-7', 'https://x.test/'), 2))),
      ).rejects.toMatchObject({ name: 'UniqueViolation', what: 'issue.external' });
      // Another workspace, another source, and any number without one: all allowed.
      await tx((t) => t.collections.issues.insert(issue('wsp_2', jira('SHOP-7'), 3)));
      await tx((t) => t.collections.issues.insert(issue('wsp_1', { source: 'csv', id: 'SHOP-7' }, 4)));
      const plain = issue('wsp_1', null, 5);
      await tx((t) => t.collections.issues.insert(plain));
      await tx((t) => t.collections.issues.insert(issue('wsp_1', null, 6)));
      await expect(
        tx((t) => t.collections.issues.update({ ...plain, external: jira('SHOP-7'), version: 2 }, 1)),
      ).rejects.toMatchObject({ name: 'UniqueViolation', what: 'issue.external' });
      // A failed write leaves nothing behind: the id is still free to take once its holder lets go.
      expect(await tx((t) => t.collections.issues.count('wsp_1', { 'external.id': 'SHOP-7' }))).toBe(2);
      await tx((t) => t.collections.issues.update({ ...plain, external: jira('SHOP-8'), version: 2 }, 1));
      expect((await tx((t) => t.collections.issues.findOne('wsp_1', { 'external.id': 'SHOP-8' })))?.id).toBe(
        plain.id,
      );
    });
  });
}
