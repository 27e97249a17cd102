import { expect, it } from 'vitest';
import type { TestServer } from '../harness.js';
import { expectJson, expectProblem, type Json } from './answers.js';
import { runCrudContract } from './crud.js';
import { createIssue, createOutcome, mainTenant } from './fixtures.js';
import { idsOf } from './paging.js';
import { signalTypesOf } from './signals.js';
import { client, describeThrough, type Target } from './support.js';

/** Every page of `path` with `limit`, following nextCursor: each page's envelope as answered. */
async function pages(s: TestServer, path: string, limit: number): Promise<Json[]> {
  const http = client(s);
  const join = path.includes('?') ? '&' : '?';
  const out: Json[] = [];
  let cursor: string | null = null;
  for (let n = 0; n < 50; n++) {
    const after: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
    const page = await http.list(`${path}${join}limit=${limit}${after}`);
    out.push(page);
    cursor = page.nextCursor;
    if (cursor === null) return out;
  }
  throw new Error(`${path} did not reach its last page`);
}

/** Saved views (issue 51): named queries of the query language, run by their resource's list. */
export function runViewSuite(target: Target): void {
  runCrudContract(target, {
    path: '/views',
    idPrefix: 'view',
    collectionMethods: ['GET', 'POST'],
    itemMethods: ['GET', 'PATCH', 'DELETE'],
    required: ['name', 'resource', 'query'],
    patch: { name: 'Blocked web bugs', query: 'status:blocked label:bug' },
    events: { created: 'view.created', updated: 'view.updated', deleted: 'view.deleted' },
  });

  describeThrough(target, 'saved views', (server) => {
    const save = (s: TestServer, fields: Record<string, unknown> = {}) =>
      client(s).create('/views', { name: 'Mine', resource: 'issues', query: 'status:open', ...fields });

    it("answers a create with 201, its ETag and Location, and the token's user as createdBy", async () => {
      const s = server();
      const res = await client(s).post('/views', {
        name: '  Web bugs ',
        resource: 'issues',
        query: 'label:bug',
      });
      const view = expectJson(res, 201);
      expect(res.headers.get('etag')).toBe('"1"');
      expect(res.headers.get('location')).toBe(`/api/v1/views/${view.id}`);
      expect(view).toMatchObject({ name: 'Web bugs', createdBy: s.ws.adminUserId, version: 1 });
      const ignored = await save(s, { createdBy: 'usr_someoneelse' });
      expect(ignored.createdBy).toBe(s.ws.adminUserId);
    });

    it('refuses a malformed query with 400 naming the term and its offset at the body’s query, saving nothing', async () => {
      const s = server();
      const http = client(s);
      const view = await save(s);
      const types = await signalTypesOf(s, async () => {
        const created = expectProblem(
          await http.post('/views', { name: 'x', resource: 'issues', query: 'label:bug colour:red' }),
          400,
          'validation_failed',
        );
        expect(created.issues).toEqual([
          expect.objectContaining({ in: 'body', path: 'query', term: 'colour:red', offset: 10 }),
        ]);
        // The same query on the list: the same term and offset, at the query string.
        const listed = expectProblem(
          await http.get(`/issues?query=${encodeURIComponent('label:bug colour:red')}`),
          400,
          'validation_failed',
        );
        expect(listed.issues).toEqual([
          expect.objectContaining({ in: 'query', path: 'query', term: 'colour:red', offset: 10 }),
        ]);
        const patched = expectProblem(
          await http.patch(`/views/${view.id}`, { query: 'status:open "unterminated' }, '"1"'),
          400,
          'validation_failed',
        );
        expect(patched.issues).toEqual([expect.objectContaining({ in: 'body', path: 'query', offset: 12 })]);
        // A key of issues that decisions lack: the current query is checked against a new resource.
        const severity = await save(s, { query: 'severity:high' });
        const moved = await http.patch(`/views/${severity.id}`, { resource: 'decisions' }, '"1"');
        expect(expectProblem(moved, 400, 'validation_failed').issues[0]).toMatchObject({
          in: 'body',
          path: 'query',
          term: 'severity:high',
          offset: 0,
        });
      });
      expect(types).toEqual(['view.created']);
      expect(expectJson(await http.get(`/views/${view.id}`), 200).version).toBe(1);
    });

    it('refuses a blank name, an unknown resource and a query longer than a list takes', async () => {
      const s = server();
      const res = await client(s).post('/views', {
        name: '   ',
        resource: 'projects',
        query: 'x'.repeat(1001),
      });
      const paths = (expectProblem(res, 400, 'validation_failed').issues as { path: string }[]).map(
        (issue) => issue.path,
      );
      expect(paths.sort()).toEqual(['name', 'query', 'resource']);
    });

    it("answers another workspace's view with 404 to every route, and lists only the workspace's own", async () => {
      const s = server();
      const http = client(s);
      const mine = await save(s);
      const foreign = await client(s).create(
        '/views',
        { name: 'Theirs', resource: 'issues', query: '' },
        s.other.adminToken,
      );
      expectProblem(await http.get(`/views/${foreign.id}`), 404, 'not_found');
      expectProblem(await http.get(`/views/${foreign.id}/items`), 404, 'not_found');
      expectProblem(await http.patch(`/views/${foreign.id}`, { name: 'Mine now' }, '"1"'), 404, 'not_found');
      expectProblem(await http.remove(`/views/${foreign.id}`, '"1"'), 404, 'not_found');
      expect(idsOf(await http.list('/views'))).toEqual([mine.id]);
      expect(expectJson(await http.get(`/views/${foreign.id}`, s.other.adminToken), 200).version).toBe(1);
    });

    it('lets a read token read and run views but not save them; filters the list by resource', async () => {
      const s = server();
      const http = client(s);
      const issues = await save(s);
      const outcomes = await save(s, { resource: 'outcomes', query: 'status:planned' });
      expect(idsOf(await http.list('/views?resource=outcomes'))).toEqual([outcomes.id]);
      expect(idsOf(await http.list('/views?-resource=outcomes'))).toEqual([issues.id]);
      const read = s.tokens.read.plain;
      expectJson(await http.get(`/views/${issues.id}`, read), 200);
      expectJson(await http.get(`/views/${issues.id}/items`, read), 200);
      expectProblem(
        await http.post('/views', { name: 'x', resource: 'issues', query: '' }, { token: read }),
        403,
        'insufficient_scope',
      );
      expectProblem(await http.remove(`/views/${issues.id}`, '"1"', read), 403, 'insufficient_scope');
    });

    it('runs a view as its resource’s list with query=: the same pages, totals and cursors, for issues, outcomes and decisions', async () => {
      const s = server();
      const http = client(s);
      const me = mainTenant(s);
      const outcome = await createOutcome(s, me, { title: 'Checkout' });
      for (let n = 0; n < 5; n++) {
        await createIssue(s, me, {
          title: `Bug ${n}`,
          labels: n % 2 ? ['bug'] : ['bug', 'web'],
          outcomeId: outcome.id,
        });
        await createIssue(s, me, { title: `Chore ${n}`, labels: ['chore'] });
        await createOutcome(s, me, { title: `Goal ${n}`, status: n % 2 ? 'planned' : 'in_progress' });
        await http.create('/decisions', {
          projectId: s.ws.projectId,
          title: `Decision ${n}`,
          rationale: 'Why not',
          ...(n < 4 ? { status: 'accepted' } : {}),
        });
        s.clock.advance(1000);
      }
      const queries = {
        issues: `label:bug -label:wontfix outcome:${outcome.id} sort:title`,
        outcomes: 'status:planned,in_progress',
        decisions: `status:accepted project:${s.ws.projectKey}`,
      };
      for (const [resource, query] of Object.entries(queries)) {
        const view = await save(s, { resource, query });
        const list = `/${resource}?query=${encodeURIComponent(query)}`;
        const viaView = await pages(s, `/views/${view.id}/items`, 2);
        const viaList = await pages(s, list, 2);
        expect(viaView).toEqual(viaList);
        expect(viaView.length).toBeGreaterThan(1);
        expect(viaView[0].total).toBeGreaterThan(2);
        // A cursor of either pages the other.
        const [first] = viaList;
        const next = `limit=2&cursor=${encodeURIComponent(first.nextCursor)}`;
        expect(await http.list(`/views/${view.id}/items?${next}`)).toEqual(viaList[1]);
        expect(
          await http.list(`${list}&${`limit=2&cursor=${encodeURIComponent(viaView[0].nextCursor)}`}`),
        ).toEqual(viaList[1]);
      }
    });

    it('runs the query as it is now: a patched query answers at once, and the list’s defaults hold', async () => {
      const s = server();
      const http = client(s);
      const bug = await createIssue(s, mainTenant(s), { labels: ['bug'] });
      const view = await save(s, { query: 'label:bug' });
      expect(idsOf(await http.list(`/views/${view.id}/items`))).toEqual([bug.id]);
      expectJson(await http.patch(`/views/${view.id}`, { query: 'label:chore' }, '"1"'), 200);
      expect(await http.list(`/views/${view.id}/items`)).toEqual({ data: [], nextCursor: null, total: 0 });
      // An archived issue is left out, as the list leaves it out without is:archived.
      expectJson(await http.patch(`/views/${view.id}`, { query: 'label:bug' }, '"2"'), 200);
      const archived = await s.api('POST', `/api/v1/issues/${bug.id}/archive`, {
        token: s.tokens.admin,
        headers: { 'If-Match': '"1"' },
      });
      expectJson(archived, 200);
      expect((await http.list(`/views/${view.id}/items`)).total).toBe(0);
      expect(issueParams(await http.get(`/views/${view.id}/items?query=label:bug`))).toEqual(['query']);
    });

    it('writes view.created, view.updated and view.deleted signals, read back through GET /signals', async () => {
      const s = server();
      const http = client(s);
      const view = await save(s);
      expectJson(await http.patch(`/views/${view.id}`, { name: 'Renamed' }, '"1"'), 200);
      expect((await http.remove(`/views/${view.id}`, '"2"')).status).toBe(204);
      const signals = await http.list('/signals?limit=200');
      const ofView = signals.data.filter((signal: Json) => signal.resource.id === view.id);
      expect(ofView.map((signal: Json) => signal.type)).toEqual([
        'view.created',
        'view.updated',
        'view.deleted',
      ]);
      expect(ofView[1].data.previous).toEqual({ name: 'Mine' });
    });
  });
}

/** The query-string paths a 400 validation_failed names. */
function issueParams(res: Awaited<ReturnType<ReturnType<typeof client>['get']>>): string[] {
  const problem = expectProblem(res, 400, 'validation_failed');
  return (problem.issues as { in: string; path: string }[])
    .filter((i) => i.in === 'query')
    .map((i) => i.path);
}
