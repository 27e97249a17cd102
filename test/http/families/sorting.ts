import { expect, it } from 'vitest';
import { expectProblem, issuePaths } from './answers.js';
import { createIssue, createOutcome, mainTenant } from './fixtures.js';
import { pageToEnd } from './paging.js';
import { client, describeThrough, type Target } from './support.js';

/** `sort=` on the lists: the documented fields per family, keyset cursors bound to the sort. */
export function runSortingSuite(target: Target): void {
  describeThrough(target, 'sorted lists', (server) => {
    it('pages issues by severity rank and by title either way, and refuses an unknown field or a cursor of another sort', async () => {
      const s = server();
      const http = client(s);
      const low = await createIssue(s, mainTenant(s), { title: 'beta', severity: 'low' });
      const critical = await createIssue(s, mainTenant(s), { title: 'Alpha', severity: 'critical' });
      const medium = await createIssue(s, mainTenant(s), { title: 'alpha', severity: 'medium' });
      expect(await pageToEnd(s, '/issues?sort=severity', 1)).toEqual([low.id, medium.id, critical.id]);
      expect(await pageToEnd(s, '/issues?sort=-severity', 2)).toEqual([critical.id, medium.id, low.id]);
      expect(await pageToEnd(s, '/issues?sort=title', 2)).toEqual([critical.id, medium.id, low.id]);
      expect(await pageToEnd(s, '/issues?sort=-number', 1)).toEqual([medium.id, critical.id, low.id]);
      const unknown = await http.get('/issues?sort=labels');
      expectProblem(unknown, 400, 'validation_failed');
      expect(issuePaths(unknown, 'query')).toEqual(['sort']);
      const first = await http.list('/issues?sort=title&limit=1');
      const reused = await http.get(
        `/issues?sort=-title&limit=1&cursor=${encodeURIComponent(first.nextCursor)}`,
      );
      expectProblem(reused, 400, 'invalid_cursor');
    });

    it('pages outcomes by due date with the undated last, and time entries by minutes', async () => {
      const s = server();
      const undated = await createOutcome(s, mainTenant(s));
      const late = await createOutcome(s, mainTenant(s), { dueDate: '2027-03-01' });
      const soon = await createOutcome(s, mainTenant(s), { dueDate: '2026-12-01' });
      expect(await pageToEnd(s, '/outcomes?sort=dueDate', 1)).toEqual([soon.id, late.id, undated.id]);
      expect(await pageToEnd(s, '/outcomes?sort=-dueDate', 2)).toEqual([undated.id, late.id, soon.id]);
      const entry = (minutes: number) =>
        client(s).create('/time-entries', { outcomeId: soon.id, minutes, date: '2026-11-20' });
      const short = await entry(15);
      const long = await entry(90);
      const middle = await entry(30);
      expect(await pageToEnd(s, '/time-entries?sort=-minutes', 1)).toEqual([long.id, middle.id, short.id]);
    });
  });
}
