import { expect, it } from 'vitest';
import { newKey, startServer, type TestServer } from '../harness.js';
import { expectJson, expectProblem, issuePaths, type Json } from './answers.js';
import { createIssue, mainTenant } from './fixtures.js';
import { signalsOf, signalTypesOf } from './signals.js';
import { client, describeThrough, type Target } from './support.js';

/** POST /batch with the given operations, a fresh key unless one is given, the admin token unless told. */
const batch = (s: TestServer, operations: unknown[], options: { key?: string | null; token?: string } = {}) =>
  s.api('POST', '/api/v1/batch', {
    token: options.token ?? s.tokens.admin,
    headers: options.key === null ? {} : { 'Idempotency-Key': options.key ?? newKey() },
    body: { operations },
  });

/** The issues of the main workspace, with every field, by id. */
const issueTotal = async (s: TestServer): Promise<number> =>
  (await client(s).list('/issues?archived=true')).total;

/** POST /api/v1/batch: all or nothing in one transaction, through the host, on the adapter. */
export function runBatchSuite(target: Target): void {
  describeThrough(target, 'batch', (server) => {
    it('applies every operation in order, answers each as alone, writes their signals, and replays the same bytes', async () => {
      const s = server();
      const issue = await createIssue(s, mainTenant(s));
      const key = newKey();
      const operations = [
        { method: 'POST', path: '/issues', body: { projectId: s.ws.projectId, title: 'Made in a batch' } },
        { method: 'PATCH', path: `/issues/${issue.id}`, ifMatch: '"1"', body: { severity: 'high' } },
        {
          method: 'POST',
          path: `/issues/${issue.key}/transition`,
          ifMatch: '"2"',
          body: { to: 'in_progress' },
        },
        { method: 'POST', path: '/comments', body: { issueId: issue.id, body: 'Batched' } },
      ];
      let first: Awaited<ReturnType<typeof batch>> | undefined;
      const types = await signalTypesOf(s, async () => {
        first = await batch(s, operations, { key });
      });
      const answer = expectJson(first as Awaited<ReturnType<typeof batch>>, 200);
      expect(types).toEqual(['issue.created', 'issue.updated', 'issue.status_changed', 'comment.created']);
      expect(answer.results.map((r: Json) => r.status)).toEqual([201, 200, 200, 201]);
      const [created, patched, moved, comment] = answer.results;
      expect(created.body).toMatchObject({ title: 'Made in a batch', version: 1 });
      expect(created).toMatchObject({ etag: '"1"', location: `/api/v1/issues/${created.body.id}` });
      expect(patched).toMatchObject({ etag: '"2"', body: { severity: 'high', version: 2 } });
      expect(moved).toMatchObject({ etag: '"3"', body: { status: 'in_progress' } });
      expect(comment.body).toMatchObject({ issueId: issue.id, body: 'Batched' });
      // What the batch answered is what is stored.
      expect(expectJson(await client(s).get(`/issues/${created.body.id}`), 200)).toEqual(created.body);
      // The comment counts on its issue, one version on.
      expect(expectJson(await client(s).get(`/issues/${issue.id}`), 200)).toEqual({
        ...moved.body,
        commentCount: 1,
        version: 4,
      });

      const replayTypes = await signalTypesOf(s, async () => {
        const again = await batch(s, operations, { key });
        expect(again.status).toBe(200);
        expect(again.text).toBe(first?.text);
        expect(again.headers.get('idempotent-replayed')).toBe('true');
      });
      expect(replayTypes).toEqual([]);
      // The key is the batch's: another batch under it is refused.
      expectProblem(await batch(s, operations.slice(1), { key }), 422, 'idempotency_key_reused');
    });

    it('applies none when one fails: its status, failedIndex and every outcome, and nothing written', async () => {
      const s = server();
      const issue = await createIssue(s, mainTenant(s));
      const total = await issueTotal(s);
      const signals = await signalsOf(s);
      const key = newKey();
      const operations = [
        { method: 'POST', path: '/issues', body: { projectId: s.ws.projectId, title: 'Never kept' } },
        { method: 'PATCH', path: `/issues/${issue.id}`, ifMatch: '"1"', body: { severity: 'high' } },
        { method: 'PATCH', path: `/issues/${issue.id}`, ifMatch: '"1"', body: { severity: 'low' } },
        { method: 'DELETE', path: `/issues/${issue.id}/relations/rel_nosuchrelation000000` },
      ];
      const problem = expectProblem(await batch(s, operations, { key }), 409, 'version_conflict');
      expect(problem.failedIndex).toBe(2);
      expect(problem.detail).toMatch(/^Operation 2 \(PATCH/);
      expect(problem.operations).toEqual([
        { outcome: 'rolled_back', status: 201 },
        { outcome: 'rolled_back', status: 200 },
        { outcome: 'failed', status: 409, body: expect.objectContaining({ error: 'version_conflict' }) },
        { outcome: 'not_run' },
      ]);
      expect(await issueTotal(s)).toBe(total);
      expect(await signalsOf(s)).toEqual(signals);
      expect(expectJson(await client(s).get(`/issues/${issue.id}`), 200)).toEqual(issue);
      // A failure is not stored with the key: the corrected batch may use it.
      const fixed = expectJson(await batch(s, operations.slice(0, 2), { key }), 200);
      expect(fixed.results.map((r: Json) => r.status)).toEqual([201, 200]);
    });

    it('validates, authorizes and routes each operation as the request alone', async () => {
      const s = server();
      const issue = await createIssue(s, mainTenant(s));
      const create = { method: 'POST', path: '/issues', body: { projectId: s.ws.projectId, title: 'x' } };
      const at = async (operations: unknown[], status: number, error: string, token?: string) => {
        const problem = expectProblem(await batch(s, operations, token ? { token } : {}), status, error);
        expect(problem.failedIndex).toBe(operations.length - 1);
        return problem;
      };
      const invalid = await at(
        [create, { method: 'POST', path: '/issues', body: { title: 7 } }],
        400,
        'validation_failed',
      );
      expect(invalid.operations[1].body.issues.map((i: Json) => i.path)).toEqual(
        expect.arrayContaining(['projectId', 'title']),
      );
      await at(
        [{ method: 'PATCH', path: `/issues/${issue.id}`, body: { severity: 'low' } }],
        428,
        'precondition_required',
      );
      await at([create, { method: 'POST', path: '/nowhere' }], 404, 'not_found');
      await at([{ method: 'DELETE', path: '/issues' }], 405, 'method_not_allowed');
      await at(
        [{ method: 'POST', path: `/issues/${s.other.issueId}/transition`, body: { to: 'closed' } }],
        404,
        'not_found',
      );
      // Every operation writes: a token that may not write is refused the batch itself.
      expectProblem(await batch(s, [create], { token: s.tokens.viewer.plain }), 403, 'forbidden');
      expectProblem(await batch(s, [create], { token: s.tokens.read.plain }), 403, 'insufficient_scope');
      // An operation needing more than the batch (an admin's) is refused as it would be alone.
      await at(
        [{ method: 'POST', path: `/webhooks/wh_nosuchwebhook00000000/test` }],
        403,
        'forbidden',
        s.tokens.member.plain,
      );
      expect(await issueTotal(s)).toBe(1);
    });

    it('replays a key only to a caller who may run every operation, and never shows a secret again', async () => {
      const s = server();
      const key = newKey();
      const operations = [
        {
          method: 'POST',
          path: '/webhooks',
          body: { url: 'https://hooks.example.com/in', eventTypes: ['issue.created'] },
        },
        { method: 'POST', path: '/members/invites', body: { email: `${newKey()}@acme.test`, role: 'admin' } },
      ];
      const first = expectJson(await batch(s, operations, { key }), 200);
      expect(first.results[0].body.secret).toMatch(/^whsec_/);
      expect(first.results[1].body.inviteUrl).toEqual(expect.any(String));
      // A member may write, but not these: the key is the workspace's, its answer is not theirs.
      const denied = expectProblem(
        await batch(s, operations, { key, token: s.tokens.member.plain }),
        403,
        'forbidden',
      );
      expect(denied.failedIndex).toBe(0);
      expect(denied.operations.map((o: Json) => o.outcome)).toEqual(['failed', 'not_run']);
      // The admin's replay answers the same results, without what was shown once.
      const again = await batch(s, operations, { key });
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      const replayed = expectJson(again, 200);
      expect(replayed.results[0]).toMatchObject({
        status: 201,
        body: { id: first.results[0].body.id, secret: null },
      });
      expect(replayed.results[1]).toMatchObject({
        status: 201,
        body: { ...first.results[1].body, inviteUrl: null },
      });
      // So is a rotated secret: shown in the answer, null in its key's replay.
      const rotateKey = newKey();
      const rotate = () =>
        s.api('POST', `/api/v1/webhooks/${first.results[0].body.id}/rotate-secret`, {
          token: s.tokens.admin,
          headers: { 'Idempotency-Key': rotateKey },
        });
      const rotated = expectJson(await rotate(), 200);
      expect(rotated.secret).toMatch(/^whsec_/);
      const rotatedAgain = await rotate();
      expect(rotatedAgain.headers.get('idempotent-replayed')).toBe('true');
      expect(expectJson(rotatedAgain, 200)).toMatchObject({ id: rotated.id, secret: null });
    });

    it('refuses a GET, a nested batch, more than 100 operations and a batch without a key (400)', async () => {
      const s = server();
      for (const path of ['/issues/../projects', '/./batch', '/issues/./x']) {
        const dotted = expectProblem(
          await batch(s, [{ method: 'POST', path, body: {} }]),
          400,
          'validation_failed',
        );
        expect(JSON.stringify(dotted)).toContain('segments');
      }
      const get = issuePaths(await batch(s, [{ method: 'GET', path: '/issues' }]));
      expect(get).toEqual(['operations.0.method']);
      const problem = expectProblem(
        await batch(s, [{ method: 'GET', path: '/issues' }]),
        400,
        'validation_failed',
      );
      expect(problem.detail).toMatch(/GET cannot/);
      expect(
        issuePaths(await batch(s, [{ method: 'POST', path: '/batch', body: { operations: [] } }])),
      ).toEqual(['operations.0.path']);
      expect(issuePaths(await batch(s, [{ method: 'POST', path: '/batch/' }]))).toEqual([
        'operations.0.path',
      ]);
      const many = Array.from({ length: 101 }, () => ({ method: 'DELETE', path: '/issues/x' }));
      expect(issuePaths(await batch(s, many))).toEqual(['operations']);
      expect(issuePaths(await batch(s, []))).toEqual(['operations']);
      expectProblem(
        await batch(
          s,
          [{ method: 'POST', path: '/issues', body: { projectId: s.ws.projectId, title: 'x' } }],
          {
            key: null,
          },
        ),
        400,
        'idempotency_key_missing',
      );
      expect(await issueTotal(s)).toBe(0);
    });

    it('refuses an ifMatch on a create, naming the operation, and applies nothing (400)', async () => {
      const s = server();
      const issue = await createIssue(s, mainTenant(s));
      const problem = expectProblem(
        await batch(s, [
          { method: 'PATCH', path: `/issues/${issue.id}`, ifMatch: '*', body: { severity: 'high' } },
          { method: 'POST', path: '/issues', ifMatch: '*', body: { projectId: s.ws.projectId, title: 'x' } },
        ]),
        400,
        'validation_failed',
      );
      expect(problem.failedIndex).toBe(1);
      expect(problem.detail).toMatch(/^Operation 1 \(POST \/issues\) failed/);
      expect(problem.issues).toEqual([{ in: 'body', path: 'ifMatch', message: 'not allowed on a create' }]);
      expect(await issueTotal(s)).toBe(1);
      expect((await client(s).get(`/issues/${issue.id}`)).json.severity).not.toBe('high');
    });

    it('counts a batch as its number of operations against the rate limit', async () => {
      const s = await startServer(target.host, {
        rateLimit: { limit: 10 },
        storage: await target.adapter.create(),
      });
      try {
        const ops = (n: number) =>
          Array.from({ length: n }, (_, i) => ({
            method: 'POST',
            path: '/issues',
            body: { projectId: s.ws.projectId, title: `Issue ${i}` },
          }));
        const four = await batch(s, ops(4));
        expectJson(four, 200);
        expect(four.headers.get('x-ratelimit-remaining')).toBe('6');
        // Seven do not fit in the six left: refused, and none of them applied.
        expectProblem(await batch(s, ops(7)), 429, 'rate_limited');
        s.clock.advance(60_001);
        expect(await issueTotal(s)).toBe(4);
      } finally {
        await s.close();
      }
    });
  });
}
