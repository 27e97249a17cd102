import { expect, it } from 'vitest';
import { expectProblem, issuePaths } from './answers.js';
import { createIssue, createProject, mainTenant } from './fixtures.js';
import { idsOf, pageToEnd } from './paging.js';
import { client, describeThrough, type Target } from './support.js';

/** Filter lists on issues: `severity=a,b` is any of them, `-severity=a` none of them. */
export function runFilterSuite(target: Target): void {
  describeThrough(target, 'filter lists', (server) => {
    it('lists the issues matching any of a comma list, or none of it, with the exact total, and refuses an unknown value', async () => {
      const s = server();
      const http = client(s);
      const other = await createProject(s, mainTenant(s), 'Gemini');
      const low = await createIssue(s, mainTenant(s), { severity: 'low' });
      const high = await createIssue(s, mainTenant(s), { severity: 'high' });
      const critical = await createIssue(s, mainTenant(s), { severity: 'critical' });
      const elsewhere = await createIssue(s, mainTenant(s), { severity: 'high', projectId: other.id });

      const anyOf = await http.list('/issues?severity=high,critical');
      expect(idsOf(anyOf)).toEqual([elsewhere.id, critical.id, high.id]);
      expect(anyOf.total).toBe(3);
      const noneOf = await http.list('/issues?-severity=high,critical');
      expect(idsOf(noneOf)).toEqual([low.id]);
      expect(noneOf.total).toBe(1);
      // Both: the values listed and not excluded, here combined with a project list.
      const both = await http.list(
        `/issues?severity=high,critical,low&-severity=low&projectId=${mainTenant(s).ws.projectId},prj_none`,
      );
      expect(idsOf(both)).toEqual([critical.id, high.id]);
      expect(both.total).toBe(2);
      const excluded = await http.list(`/issues?-projectId=${mainTenant(s).ws.projectId}`);
      expect(idsOf(excluded)).toEqual([elsewhere.id]);
      // Paged one by one, each once, under the newest-first and a sorted order.
      expect(await pageToEnd(s, '/issues?severity=high,critical', 1)).toEqual([
        elsewhere.id,
        critical.id,
        high.id,
      ]);
      expect(await pageToEnd(s, '/issues?severity=low,critical&sort=-severity', 1)).toEqual([
        critical.id,
        low.id,
      ]);

      const unknown = await http.get('/issues?status=open,nope');
      expectProblem(unknown, 400, 'validation_failed');
      expect(issuePaths(unknown, 'query')).toEqual(['status']);
      const empty = await http.get('/issues?-status=open,');
      expectProblem(empty, 400, 'validation_failed');
      expect(issuePaths(empty, 'query')).toEqual(['-status']);
      // A cursor is bound to its filters: reused with another list, it is refused.
      const first = await http.list('/issues?severity=high,critical&limit=1');
      const reused = await http.get(
        `/issues?severity=high&limit=1&cursor=${encodeURIComponent(first.nextCursor)}`,
      );
      expectProblem(reused, 400, 'invalid_cursor');
    });

    it('lists the issues with no assignee (`assigneeId=none`), or with one, and those changed before a time', async () => {
      const s = server();
      const http = client(s);
      const member = s.tokens.member.userId;
      const assigned = await createIssue(s, mainTenant(s), { assigneeId: member });
      const unassigned = await createIssue(s, mainTenant(s));
      const none = await http.list('/issues?assigneeId=none');
      expect(idsOf(none)).toEqual([unassigned.id]);
      expect(none.total).toBe(1);
      const either = await http.list(`/issues?assigneeId=none,${member}`);
      expect(either.total).toBe(2);
      const someone = await http.list('/issues?-assigneeId=none');
      expect(idsOf(someone)).toEqual([assigned.id]);
      expect(someone.total).toBe(1);
      const notMember = await http.list(`/issues?-assigneeId=${member}`);
      expect(idsOf(notMember)).toEqual([unassigned.id]);

      const long = await http.list('/issues?updatedBefore=2000-01-01T00:00:00Z');
      expect(long.total).toBe(0);
      // Exclusive: the bound at an issue's last change leaves it out.
      const before = await http.list(`/issues?updatedBefore=${encodeURIComponent(unassigned.updatedAt)}`);
      expect(idsOf(before)).not.toContain(unassigned.id);
      expect(before.total).toBe(before.data.length);
      const all = await http.list('/issues?updatedBefore=2999-01-01T00:00:00Z&assigneeId=none');
      expect(idsOf(all)).toEqual([unassigned.id]);
      expectProblem(await http.get('/issues?updatedBefore=yesterday'), 400, 'validation_failed');
      expectProblem(await http.get('/outcomes?ownerId=none'), 400, 'validation_failed');
    });
  });
}
