import { expect, it } from 'vitest';
import { expectJson, expectProblem } from './answers.js';
import { createIssue, createOutcome, createProject, mainTenant, otherTenant } from './fixtures.js';
import { idsOf } from './paging.js';
import { signalTypesOf } from './signals.js';
import { client, describeThrough, type Target } from './support.js';

/**
 * What the projects extension gives issues (per-project numbers, read-only keys, lookup by key)
 * and their outcome references; the rest of issues is in the main HTTP suite.
 */
export function runIssueKeySuite(target: Target): void {
  describeThrough(target, 'issue numbers, keys and outcome references', (server) => {
    it('numbers issues per project and answers GET, PATCH and transition by key as by id', async () => {
      const s = server();
      const http = client(s);
      const hermes = await createProject(s, mainTenant(s), 'Hermes');
      const a1 = await createIssue(s, mainTenant(s));
      const h1 = await createIssue(s, mainTenant(s), { projectId: hermes.id });
      const a2 = await createIssue(s, mainTenant(s));
      expect([a1, a2, h1].map((i) => [i.number, i.key])).toEqual([
        [1, 'APO-1'],
        [2, 'APO-2'],
        [1, 'HER-1'],
      ]);
      const byKey = await http.get('/issues/APO-2');
      expect(expectJson(byKey, 200)).toEqual(expectJson(await http.get(`/issues/${a2.id}`), 200));
      expect(byKey.headers.get('etag')).toBe('"1"');
      expect(expectJson(await http.patch('/issues/HER-1', { severity: 'high' }, '"1"'), 200).id).toBe(h1.id);
      const moved = await s.api('POST', '/api/v1/issues/APO-1/transition', {
        token: s.tokens.admin,
        body: { to: 'blocked' },
      });
      expect(expectJson(moved, 200)).toMatchObject({ id: a1.id, status: 'blocked' });
      for (const key of ['APO-3', 'HER-0', 'NOPE-1', 'apo-1']) {
        expectProblem(await http.get(`/issues/${key}`), 404, 'not_found');
      }
    });

    it("never finds another workspace's issue by its key, even when the keys coincide", async () => {
      const s = server();
      const http = client(s);
      expect(s.other.issueKey).toBe('APO-1');
      expectProblem(await http.get('/issues/APO-1'), 404, 'not_found');
      const mine = await createIssue(s, mainTenant(s));
      expect(mine.key).toBe('APO-1');
      expect(expectJson(await http.get('/issues/APO-1'), 200).id).toBe(mine.id);
      expect(expectJson(await http.get('/issues/APO-1', s.other.adminToken), 200).id).toBe(s.other.issueId);
    });

    it('ignores number and key in create and PATCH bodies', async () => {
      const s = server();
      const http = client(s);
      const issue = await createIssue(s, mainTenant(s), { number: 99, key: 'APO-99' });
      expect(issue).toMatchObject({ number: 1, key: 'APO-1' });
      const patched = await http.patch(
        `/issues/${issue.id}`,
        { number: 7, key: 'X-7', title: 'Renamed' },
        '"1"',
      );
      expect(expectJson(patched, 200)).toMatchObject({ number: 1, key: 'APO-1', title: 'Renamed' });
    });

    it('answers an outcome of another workspace, of no one or of another project with 422 invalid_reference', async () => {
      const s = server();
      const http = client(s);
      const hermes = await createProject(s, mainTenant(s), 'Hermes');
      const elsewhere = await createOutcome(s, mainTenant(s), { projectId: hermes.id });
      const foreign = await createOutcome(s, otherTenant(s));
      const issue = await createIssue(s, mainTenant(s));
      const types = await signalTypesOf(s, async () => {
        for (const outcomeId of [foreign.id, 'out_doesnotexist', elsewhere.id]) {
          const created = await http.post('/issues', { projectId: s.ws.projectId, title: 'x', outcomeId });
          expect(expectProblem(created, 422, 'invalid_reference').field).toBe('outcomeId');
          const patched = await http.patch(`/issues/${issue.id}`, { outcomeId }, '"1"');
          expect(expectProblem(patched, 422, 'invalid_reference').field).toBe('outcomeId');
        }
      });
      expect(types).toEqual([]);
      const own = await createOutcome(s, mainTenant(s));
      expect((await createIssue(s, mainTenant(s), { outcomeId: own.id })).outcomeId).toBe(own.id);
      expect(idsOf(await http.list(`/issues?outcomeId=${own.id}`))).toHaveLength(1);
    });
  });
}
