import { expect, it } from 'vitest';
import { expectJson, issuePaths } from './answers.js';
import { createIssue, mainTenant, otherTenant } from './fixtures.js';
import { idsOf } from './paging.js';
import { client, describeThrough, type Target } from './support.js';

const shop = { source: 'jira', id: 'SHOP-101', url: 'https://acme.atlassian.net/browse/SHOP-101' };

/** Where an issue was imported from (`external`): set by its create, kept, filtered, one a source and id. */
export function runExternalSuite(target: Target): void {
  describeThrough(target, "issues' external references", (server) => {
    it('keeps the external reference a create gives, shows it on reads, and lists by externalId and externalSource', async () => {
      const s = server();
      const http = client(s);
      const imported = await createIssue(s, mainTenant(s), { external: shop });
      const linear = await createIssue(s, mainTenant(s), { external: { source: 'linear', id: 'SHOP-101' } });
      const plain = await createIssue(s, mainTenant(s));
      expect(imported.external).toEqual(shop);
      expect(plain.external).toBeNull();
      expect(expectJson(await http.get(`/issues/${imported.id}`), 200).external).toEqual(shop);
      expect(idsOf(await http.list('/issues?externalId=SHOP-101'))).toEqual([linear.id, imported.id]);
      expect(idsOf(await http.list('/issues?externalId=SHOP-101&externalSource=jira'))).toEqual([
        imported.id,
      ]);
      const jira = await http.list('/issues?externalSource=jira');
      expect([idsOf(jira), jira.total]).toEqual([[imported.id], 1]);
      expect((await http.list('/issues?externalId=SHOP-999')).total).toBe(0);
      // Ids with characters a URL escapes (GitHub's owner/repo#42) are found as they are.
      const gh = await createIssue(s, mainTenant(s), {
        external: { source: 'github', id: 'octo/apollo#42' },
      });
      expect(idsOf(await http.list(`/issues?externalId=${encodeURIComponent('octo/apollo#42')}`))).toEqual([
        gh.id,
      ]);
      // Another workspace's issue with the same external id is neither found nor in the way.
      const theirs = await createIssue(s, otherTenant(s), { external: shop });
      expect(idsOf(await http.list('/issues?externalId=SHOP-101&externalSource=jira'))).toEqual([
        imported.id,
      ]);
      expect(idsOf(await http.list('/issues?externalId=SHOP-101', s.other.adminToken))).toEqual([theirs.id]);
    });

    it('refuses a second issue with the same source and id in a workspace, naming the first', async () => {
      const s = server();
      const http = client(s);
      const first = await createIssue(s, mainTenant(s), { external: shop });
      const again = await http.post('/issues', { projectId: s.ws.projectId, title: 'Again', external: shop });
      expect(issuePaths(again)).toEqual(['external.id']);
      expect(again.json.detail).toContain(first.key);
    });

    it('ignores external in a PATCH: where an issue came from is said once, by its create', async () => {
      const s = server();
      const http = client(s);
      const issue = await createIssue(s, mainTenant(s), { external: shop });
      const patched = expectJson(
        await http.patch(
          `/issues/${issue.id}`,
          { title: 'Renamed', external: { source: 'csv', id: 'X' } },
          '"1"',
        ),
        200,
      );
      expect(patched).toMatchObject({ title: 'Renamed', external: shop });
    });

    it('refuses an external reference it could not store or find, and such a filter', async () => {
      const s = server();
      const http = client(s);
      const bad = [
        { source: 'Jira', id: 'SHOP-1' },
        { source: 'jira', id: '' },
        { source: 'jira', id: '   ' },
        { source: 'jira', id: 'SHOP\u00001' },
        { source: 'jira', id: 'x'.repeat(201) },
        { source: 'jira', id: 'SHOP-1', url: 'javascript:alert(1)' },
        { source: 'jira', id: 'SHOP-1', extra: true },
      ];
      for (const external of bad) {
        const res = await http.post('/issues', { projectId: s.ws.projectId, title: 'T', external });
        expect(issuePaths(res)[0]).toMatch(/^external/);
      }
      for (const query of ['externalId=SHOP%001', 'externalSource=Not%20a%20name']) {
        expect(issuePaths(await http.get(`/issues?${query}`), 'query')).toHaveLength(1);
      }
    });
  });
}
