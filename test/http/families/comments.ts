import { expect, it } from 'vitest';
import type { TestServer } from '../harness.js';
import { expectJson, expectProblem, issuePaths, type Json } from './answers.js';
import { runCrudContract } from './crud.js';
import { createIssue, createOutcome, mainTenant, otherTenant } from './fixtures.js';
import { idsOf, pageToEnd } from './paging.js';
import { signalsOf, signalTypesOf } from './signals.js';
import { client, describeThrough, type Target } from './support.js';

/** Comments: on exactly one issue, outcome or decision, counted there, oldest first, edited by their author. */
export function runCommentSuite(target: Target): void {
  runCrudContract(target, {
    path: '/comments',
    idPrefix: 'cmt',
    collectionMethods: ['GET', 'POST'],
    itemMethods: ['GET', 'PATCH', 'DELETE'],
    required: ['body'],
    patch: { body: 'Edited: seen on Firefox too' },
    events: { created: 'comment.created', updated: 'comment.updated', deleted: 'comment.deleted' },
    oldestFirst: true,
  });

  describeThrough(target, 'comments', (server) => {
    const comment = (s: TestServer, fields: Record<string, unknown>, token = s.tokens.admin) =>
      client(s).create('/comments', { body: 'Looks like a race', ...fields }, token);
    const createDecision = (s: TestServer) =>
      client(s).create('/decisions', {
        projectId: s.ws.projectId,
        title: 'Use SQLite',
        rationale: 'One file',
      });

    it("writes a comment as the token's user, whatever authorId the body names", async () => {
      const s = server();
      const issue = await createIssue(s, mainTenant(s));
      const made = await comment(s, { issueId: issue.id, authorId: s.ws.adminUserId }, s.tokens.member.plain);
      expect(made).toMatchObject({
        issueId: issue.id,
        outcomeId: null,
        decisionId: null,
        authorId: s.tokens.member.userId,
        editedAt: null,
      });
    });

    it('needs exactly one of issueId, outcomeId and decisionId, and a body of 1 to 50,000 characters', async () => {
      const s = server();
      const http = client(s);
      const issue = await createIssue(s, mainTenant(s));
      const outcome = await createOutcome(s, mainTenant(s));
      const types = await signalTypesOf(s, async () => {
        expect(issuePaths(await http.post('/comments', { body: 'x' }))).toEqual(['issueId']);
        const both = await http.post('/comments', { issueId: issue.id, outcomeId: outcome.id, body: 'x' });
        expect(issuePaths(both)).toEqual(['issueId']);
        const allNull = { issueId: null, outcomeId: null, decisionId: null, body: 'x' };
        expect(issuePaths(await http.post('/comments', allNull))).toEqual(['issueId']);
        for (const body of ['', '   ', 'x'.repeat(50_001), 5, null]) {
          expect(issuePaths(await http.post('/comments', { issueId: issue.id, body }))).toEqual(['body']);
        }
      });
      expect(types).toEqual([]);
      expect((await comment(s, { issueId: issue.id, body: 'x'.repeat(50_000) })).body).toHaveLength(50_000);
      // The other targets as a comment shows them (null) are the same as left out.
      const shaped = await comment(s, { issueId: null, outcomeId: outcome.id, decisionId: null, body: 'y' });
      expect(shaped).toMatchObject({ issueId: null, outcomeId: outcome.id, decisionId: null });
    });

    it('answers an issue, outcome or decision outside the workspace with 422 invalid_reference naming the field', async () => {
      const s = server();
      const http = client(s);
      const foreignOutcome = await createOutcome(s, otherTenant(s));
      const cases: [Record<string, unknown>, string][] = [
        [{ issueId: s.other.issueId }, 'issueId'],
        [{ issueId: 'iss_doesnotexist' }, 'issueId'],
        [{ outcomeId: foreignOutcome.id }, 'outcomeId'],
        [{ decisionId: 'dec_doesnotexist' }, 'decisionId'],
      ];
      const types = await signalTypesOf(s, async () => {
        for (const [fields, field] of cases) {
          const res = await http.post('/comments', { body: 'x', ...fields });
          expect(expectProblem(res, 422, 'invalid_reference').field).toBe(field);
        }
      });
      expect(types).toEqual([]);
    });

    it('counts comments on issues, outcomes and decisions, moving their version and ETag with the count', async () => {
      const s = server();
      const http = client(s);
      const threads: [string, string, Json][] = [
        ['issueId', '/issues', await createIssue(s, mainTenant(s))],
        ['outcomeId', '/outcomes', await createOutcome(s, mainTenant(s))],
        ['decisionId', '/decisions', await createDecision(s)],
      ];
      for (const [field, path, thread] of threads) {
        expect(thread.commentCount).toBe(0);
        const first = await comment(s, { [field]: thread.id });
        await comment(s, { [field]: thread.id });
        const read = await http.get(`${path}/${thread.id}`);
        expect(expectJson(read, 200)).toMatchObject({ commentCount: 2, version: 3 });
        expect(read.headers.get('etag')).toBe('"3"');
        expect(
          (await http.get(`${path}/${thread.id}`, s.tokens.admin, { 'If-None-Match': '"1"' })).status,
        ).toBe(200);
        expect((await http.remove(`/comments/${first.id}`)).status).toBe(204);
        expect(expectJson(await http.get(`${path}/${thread.id}`), 200)).toMatchObject({ commentCount: 1 });
        const listed = await http.list(`${path}?limit=200`);
        expect(listed.data.find((item: Json) => item.id === thread.id).commentCount).toBe(1);
      }
    });

    it('makes a transition’s comment a comment on the issue, named by issue.status_changed, in one new version', async () => {
      const s = server();
      const http = client(s);
      const issue = await createIssue(s, mainTenant(s));
      const before = (await signalsOf(s)).length;
      const moved = expectJson(
        await http.post(`/issues/${issue.id}/transition`, { to: 'in_progress', comment: 'Starting on it' }),
        200,
      );
      expect(moved).toMatchObject({ status: 'in_progress', commentCount: 1, version: 2 });
      const signals = (await signalsOf(s)).slice(before);
      expect(signals.map((e) => e.type)).toEqual(['comment.created', 'issue.status_changed']);
      const [created, changed] = signals as [Json, Json];
      const thread = await http.list(`/comments?issueId=${issue.id}`);
      expect(thread.data).toEqual([created.data.object]);
      expect(thread.data[0]).toMatchObject({ body: 'Starting on it', authorId: s.ws.adminUserId });
      expect(changed.data).toMatchObject({ comment: 'Starting on it', commentId: thread.data[0].id });
      // A transition without a comment, or with a blank one, makes none.
      const types = await signalTypesOf(s, async () => {
        expectJson(await http.post(`/issues/${issue.id}/transition`, { to: 'blocked', comment: '  ' }), 200);
        expectJson(await http.post(`/issues/${issue.id}/transition`, { to: 'open' }), 200);
      });
      expect(types).toEqual(['issue.status_changed', 'issue.status_changed']);
      expect((await http.list(`/comments?issueId=${issue.id}`)).total).toBe(1);
    });

    it('lists oldest first, newest first with sort=-createdAt, by thread and author, and refuses a cursor of another sort', async () => {
      const s = server();
      const http = client(s);
      const issue = await createIssue(s, mainTenant(s));
      const other = await createIssue(s, mainTenant(s));
      const made: string[] = [];
      for (let n = 0; n < 5; n++) {
        const token = n % 2 === 0 ? s.tokens.admin : s.tokens.member.plain;
        made.push((await comment(s, { issueId: issue.id, body: `c${n}` }, token)).id);
        s.clock.advance(1000);
      }
      await comment(s, { issueId: other.id });
      expect(await pageToEnd(s, `/comments?issueId=${issue.id}`, 2)).toEqual(made);
      expect(await pageToEnd(s, `/comments?issueId=${issue.id}&sort=-createdAt`, 2)).toEqual(
        [...made].reverse(),
      );
      expect(await pageToEnd(s, `/comments?authorId=${s.tokens.member.userId}`, 1)).toEqual([
        made[1],
        made[3],
      ]);
      expect((await http.list(`/comments?issueId=${other.id}`)).total).toBe(1);
      const first = await http.list(`/comments?issueId=${issue.id}&limit=2`);
      const cursor = encodeURIComponent(first.nextCursor);
      const reused = await http.get(`/comments?issueId=${issue.id}&limit=2&sort=-createdAt&cursor=${cursor}`);
      expectProblem(reused, 400, 'invalid_cursor');
      expect(issuePaths(await http.get('/comments?sort=body'), 'query')).toEqual(['sort']);
    });

    it('lets only the author or a workspace admin edit or delete a comment, and stamps editedAt on an edit', async () => {
      const s = server();
      const http = client(s);
      const issue = await createIssue(s, mainTenant(s));
      const mine = await comment(s, { issueId: issue.id }, s.tokens.member.plain);
      const admins = await comment(s, { issueId: issue.id });
      const types = await signalTypesOf(s, async () => {
        const edit = await http.patch(
          `/comments/${admins.id}`,
          { body: 'Not yours' },
          '"1"',
          s.tokens.member.plain,
        );
        expectProblem(edit, 403, 'forbidden');
        expectProblem(
          await http.remove(`/comments/${admins.id}`, null, s.tokens.member.plain),
          403,
          'forbidden',
        );
      });
      expect(types).toEqual([]);
      s.clock.advance(5000);
      const edited = expectJson(
        await http.patch(`/comments/${mine.id}`, { body: 'Also on Firefox' }, '"1"', s.tokens.member.plain),
        200,
      );
      expect(edited).toMatchObject({ body: 'Also on Firefox', version: 2, editedAt: edited.updatedAt });
      expect(edited.editedAt).not.toBe(mine.createdAt);
      // The same body again changes nothing; the admin may edit and delete anyone's comment.
      const same = await http.patch(`/comments/${mine.id}`, { body: 'Also on Firefox' }, '"2"');
      expect(expectJson(same, 200).version).toBe(2);
      expect((await http.remove(`/comments/${mine.id}`, '"2"')).status).toBe(204);
    });

    it('deletes the comments of a deleted outcome with it, one comment.deleted each', async () => {
      const s = server();
      const http = client(s);
      const outcome = await createOutcome(s, mainTenant(s));
      const kept = await createOutcome(s, mainTenant(s));
      const doomed = [
        await comment(s, { outcomeId: outcome.id }),
        await comment(s, { outcomeId: outcome.id }),
      ];
      await comment(s, { outcomeId: kept.id });
      const current = await http.get(`/outcomes/${outcome.id}`);
      const types = await signalTypesOf(s, async () => {
        const res = await http.remove(`/outcomes/${outcome.id}`, current.headers.get('etag'));
        expect(res.status).toBe(204);
      });
      expect(types).toEqual(['comment.deleted', 'comment.deleted', 'outcome.deleted']);
      for (const gone of doomed) expectProblem(await http.get(`/comments/${gone.id}`), 404, 'not_found');
      expect((await http.list('/comments')).total).toBe(1);
    });

    it('lets a viewer read comments but not write them', async () => {
      const s = server();
      const http = client(s);
      const issue = await createIssue(s, mainTenant(s));
      await comment(s, { issueId: issue.id });
      expect((await http.list(`/comments?issueId=${issue.id}`)).total).toBe(1);
      const viewer = s.tokens.viewer.plain;
      expect(expectJson(await http.get('/comments', viewer), 200).total).toBe(1);
      expectProblem(
        await http.post('/comments', { issueId: issue.id, body: 'x' }, { token: viewer }),
        403,
        'forbidden',
      );
      expect(idsOf(await http.list('/comments', s.other.adminToken))).toEqual([]);
    });
  });
}
