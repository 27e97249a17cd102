import { expect, it } from 'vitest';
import { expectJson, expectProblem, issuePaths } from './answers.js';
import { createIssue, mainTenant, otherTenant } from './fixtures.js';
import { idsOf, pageToEnd } from './paging.js';
import { client, describeThrough, type Target } from './support.js';

/** `labels=` / `labelsAny=` on the issues list, and `GET /labels` with each label's issue count. */
export function runLabelSuite(target: Target): void {
  describeThrough(target, 'label filters and the labels list', (server) => {
    it('lists the issues carrying every label (`labels`) or any of them (`labelsAny`), combined with the other filters, sorted and paged', async () => {
      const s = server();
      const http = client(s);
      const both = await createIssue(s, mainTenant(s), { labels: ['safari', 'ui'], severity: 'high' });
      const safari = await createIssue(s, mainTenant(s), { labels: ['safari'], severity: 'low' });
      const ui = await createIssue(s, mainTenant(s), { labels: ['ui', 'ui'] });
      await createIssue(s, mainTenant(s), { labels: [] });
      await createIssue(s, otherTenant(s), { labels: ['safari', 'ui'] });

      const all = await http.list('/issues?labels=safari,ui');
      expect(idsOf(all)).toEqual([both.id]);
      expect(all.total).toBe(1);
      const any = await http.list('/issues?labelsAny=safari,ui');
      expect(idsOf(any)).toEqual([ui.id, safari.id, both.id]);
      expect(any.total).toBe(3);
      // A repeated label counts once; a label nobody carries matches nothing.
      expect((await http.list('/issues?labels=safari,safari')).total).toBe(2);
      expect((await http.list('/issues?labels=safari,absent')).total).toBe(0);
      expect(idsOf(await http.list('/issues?labelsAny=absent,ui&labels=safari'))).toEqual([both.id]);
      const combined = await http.list('/issues?labelsAny=safari,ui&severity=low,high&-severity=low');
      expect(idsOf(combined)).toEqual([both.id]);
      expect(await pageToEnd(s, '/issues?labelsAny=safari,ui&sort=severity', 1)).toEqual([
        safari.id,
        ui.id,
        both.id,
      ]);
      expect(await pageToEnd(s, '/issues?labelsAny=ui,safari', 2)).toEqual([ui.id, safari.id, both.id]);

      // Archived issues are left out, as from every list, unless asked for.
      expectJson(
        await s.api('POST', `/api/v1/issues/${safari.id}/archive`, {
          token: s.tokens.admin,
          headers: { 'If-Match': `"${safari.version}"` },
        }),
        200,
      );
      expect(idsOf(await http.list('/issues?labels=safari'))).toEqual([both.id]);
      expect((await http.list('/issues?labels=safari&archived=true')).total).toBe(2);
      expect(idsOf(await http.list('/issues?labels=safari&archived=only'))).toEqual([safari.id]);

      // A changed label moves the issue.
      const patched = await http.patch(`/issues/${ui.id}`, { labels: ['safari'] }, `"${ui.version}"`);
      expectJson(patched, 200);
      expect(idsOf(await http.list('/issues?labels=safari'))).toEqual([ui.id, both.id]);
      expect(idsOf(await http.list('/issues?labelsAny=ui'))).toEqual([both.id]);

      // A cursor is bound to its label filters.
      const first = await http.list('/issues?labelsAny=safari,ui&limit=1');
      const reused = await http.get(
        `/issues?labelsAny=safari&limit=1&cursor=${encodeURIComponent(first.nextCursor)}`,
      );
      expectProblem(reused, 400, 'invalid_cursor');
    });

    it('refuses an empty, blank-edged, over-long or 51st label with 400 validation_failed naming the parameter', async () => {
      const http = client(server());
      const long = 'x'.repeat(65);
      const many = Array.from({ length: 51 }, (_, i) => `l${i}`).join(',');
      for (const [query, name] of [
        ['labels=', 'labels'],
        ['labels=a,,b', 'labels'],
        ['labels=a,', 'labels'],
        ['labelsAny=,a', 'labelsAny'],
        [`labels=${encodeURIComponent(' a')}`, 'labels'],
        [`labelsAny=${encodeURIComponent('a ,b')}`, 'labelsAny'],
        [`labels=${long}`, 'labels'],
        [`labelsAny=${many}`, 'labelsAny'],
      ] as const) {
        const res = await http.get(`/issues?${query}`);
        expectProblem(res, 400, 'validation_failed');
        expect(issuePaths(res, 'query')).toEqual([name]);
      }
      // The longest label (64 characters) and 50 of them are fine; inner spaces too.
      expect((await http.list(`/issues?labels=${'x'.repeat(64)}`)).total).toBe(0);
      const fifty = Array.from({ length: 50 }, (_, i) => `l${i}`).join(',');
      expect((await http.list(`/issues?labelsAny=${fifty}`)).total).toBe(0);
      expect((await http.list(`/issues?labels=${encodeURIComponent('needs review')}`)).total).toBe(0);
    });

    it('lists the workspace labels in name order with their issue counts, paged, for any token that may list issues', async () => {
      const s = server();
      const http = client(s);
      await createIssue(s, mainTenant(s), { labels: ['ui', 'safari', 'Zeta'] });
      const second = await createIssue(s, mainTenant(s), { labels: ['safari', 'é'] });
      await createIssue(s, otherTenant(s), { labels: ['elsewhere'] });
      expectJson(
        await s.api('POST', `/api/v1/issues/${second.id}/archive`, {
          token: s.tokens.admin,
          headers: { 'If-Match': `"${second.version}"` },
        }),
        200,
      );

      const page = await http.list('/labels');
      expect(page).toEqual({
        data: [
          { name: 'Zeta', issueCount: 1 },
          { name: 'safari', issueCount: 2 },
          { name: 'ui', issueCount: 1 },
          { name: 'é', issueCount: 1 },
        ],
        nextCursor: null,
        total: 4,
      });
      // Paged by name, the total the same on every page.
      const names: string[] = [];
      let cursor: string | null = null;
      do {
        const after: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
        const next = await http.list(`/labels?limit=3${after}`);
        expect(next.total).toBe(4);
        names.push(...next.data.map((label: { name: string }) => label.name));
        cursor = next.nextCursor;
      } while (cursor !== null);
      expect(names).toEqual(['Zeta', 'safari', 'ui', 'é']);

      expect((await http.list('/labels', s.tokens.read.plain)).total).toBe(4);
      expectProblem(await http.get('/labels?cursor=nonsense'), 400, 'invalid_cursor');
      expectProblem(await http.get('/labels?sort=name'), 400, 'validation_failed');
      expectProblem(await s.api('GET', '/api/v1/labels'), 401, 'unauthorized');
    });

    it('keeps a label named twice once, on create and on update, as a set in the order first named', async () => {
      const s = server();
      const http = client(s);
      const made = await createIssue(s, mainTenant(s), { labels: ['ui', 'ui', 'safari', 'ui'] });
      expect(made.labels).toEqual(['ui', 'safari']);
      const patched = expectJson(
        await http.patch(`/issues/${made.id}`, { labels: ['b', 'a', 'b'] }, `"${made.version}"`),
        200,
      );
      expect(patched.labels).toEqual(['b', 'a']);
      expect((await http.list('/labels')).data).toEqual([
        { name: 'a', issueCount: 1 },
        { name: 'b', issueCount: 1 },
      ]);
    });
  });
}
