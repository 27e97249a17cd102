import { beforeEach, describe, expect, it } from 'vitest';
import { type ApiResponse, newKey, type TestServer } from './harness.js';
import {
  expectCommonHeaders,
  expectJson,
  expectProblem,
  getWithBody,
  type HttpSuiteContext,
  iso,
  issuePaths,
  uuidPattern,
} from './suite-support.js';

/** The HTTP suite's part on health, headers on every response, and the 400, 401 and 403 answers. */
export function pipelineBasics(t: HttpSuiteContext): void {
  let s: TestServer;
  beforeEach(() => {
    s = t.server();
  });
  const { createIssue, listIssues } = t;

  describe('health', () => {
    it('answers GET /healthz with 200 {"status":"ok"} without a token, outside the rate limit', async () => {
      const res = await s.api('GET', '/healthz');
      expect(res.status).toBe(200);
      expect(res.json).toEqual({ status: 'ok' });
      expect(res.headers.get('x-request-id')).toMatch(uuidPattern);
      expect(res.headers.get('x-ratelimit-limit')).toBeNull();
    });

    it('answers GET /readyz with 200 {"status":"ready"} once storage answers', async () => {
      const res = await s.api('GET', '/readyz');
      expect(res.status).toBe(200);
      expect(res.json).toEqual({ status: 'ready' });
    });
  });

  describe('headers on every response', () => {
    it('sends X-Request-Id and the rate-limit headers on successes and on errors alike', async () => {
      const issue = await createIssue();
      const responses = [
        await s.api('GET', '/api/v1/openapi.json'),
        await s.api('GET', '/api/v1/issues', { token: s.tokens.admin }),
        await s.api('GET', `/api/v1/issues/${issue.id}`, {
          token: s.tokens.admin,
          headers: { 'If-None-Match': '"1"' },
        }),
        await s.api('GET', '/api/v1/issues'),
        await s.api('GET', '/api/v1/issues?colour=red', { token: s.tokens.admin }),
        await s.api('POST', '/api/v1/issues', { token: s.tokens.read.plain, body: {} }),
        await s.api('GET', '/api/v1/issues/iss_missing', { token: s.tokens.admin }),
        await s.api('DELETE', `/api/v1/issues/${issue.id}`, { token: s.tokens.admin }),
        await s.api('PATCH', `/api/v1/issues/${issue.id}`, { token: s.tokens.admin, body: {} }),
      ];
      expect(responses.map((r) => r.status)).toEqual([200, 200, 304, 401, 400, 403, 404, 405, 428]);
      for (const res of responses) expectCommonHeaders(res);
    });

    it('echoes a sane X-Request-Id on a success and on an error', async () => {
      const ok = await s.api('GET', '/api/v1/issues', {
        token: s.tokens.admin,
        headers: { 'X-Request-Id': 'req-42.retry:1' },
      });
      expect(ok.status).toBe(200);
      expect(ok.headers.get('x-request-id')).toBe('req-42.retry:1');
      const denied = await s.api('GET', '/api/v1/issues', { headers: { 'X-Request-Id': 'abc-123' } });
      expect(denied.status).toBe(401);
      expect(denied.headers.get('x-request-id')).toBe('abc-123');
    });

    it('replaces an X-Request-Id that is not sane with a generated UUID', async () => {
      for (const sent of ['has spaces in it', 'x'.repeat(129), 'semi;colon']) {
        const res = await s.api('GET', '/api/v1/issues', {
          token: s.tokens.admin,
          headers: { 'X-Request-Id': sent },
        });
        expect(res.status).toBe(200);
        expect(res.headers.get('x-request-id')).toMatch(uuidPattern);
      }
    });

    it('generates a distinct request id for each request that sends none', async () => {
      const a = await s.api('GET', '/healthz');
      const b = await s.api('GET', '/healthz');
      expect(a.headers.get('x-request-id')).toMatch(uuidPattern);
      expect(b.headers.get('x-request-id')).toMatch(uuidPattern);
      expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
    });
  });

  describe('400 Bad Request', () => {
    it('answers a create without a title with validation_failed naming title', async () => {
      const res = await s.api('POST', '/api/v1/issues', {
        token: s.tokens.admin,
        headers: { 'Idempotency-Key': newKey() },
        body: { projectId: s.ws.projectId },
      });
      const problem = expectProblem(res, 400, 'validation_failed');
      expect(issuePaths(problem, 'body')).toEqual(['title']);
      expect(problem.issues[0].message).toEqual(expect.any(String));
    });

    it('answers an unknown severity with validation_failed naming severity', async () => {
      const res = await s.api('POST', '/api/v1/issues', {
        token: s.tokens.admin,
        headers: { 'Idempotency-Key': newKey() },
        body: { projectId: s.ws.projectId, title: 'x', severity: 'urgent' },
      });
      expect(issuePaths(expectProblem(res, 400, 'validation_failed'), 'body')).toEqual(['severity']);
    });

    it('answers a bad severity in a PATCH with validation_failed naming severity', async () => {
      const issue = await createIssue();
      const res = await s.api('PATCH', `/api/v1/issues/${issue.id}`, {
        token: s.tokens.admin,
        headers: { 'If-Match': '"1"' },
        body: { severity: 'blocker' },
      });
      expect(issuePaths(expectProblem(res, 400, 'validation_failed'), 'body')).toEqual(['severity']);
    });

    it('answers an unknown body field with validation_failed naming that field', async () => {
      const res = await s.api('POST', '/api/v1/issues', {
        token: s.tokens.admin,
        headers: { 'Idempotency-Key': newKey() },
        body: { projectId: s.ws.projectId, title: 'x', colour: 'red' },
      });
      const problem = expectProblem(res, 400, 'validation_failed');
      expect(problem.issues).toEqual([{ in: 'body', path: 'colour', message: 'unknown field' }]);
    });

    it('answers an unknown query parameter with validation_failed naming it', async () => {
      const res = await s.api('GET', '/api/v1/issues?colour=red', { token: s.tokens.admin });
      expect(issuePaths(expectProblem(res, 400, 'validation_failed'), 'query')).toEqual(['colour']);
    });

    it('answers limit=0 and limit=201 with validation_failed naming limit, and accepts 1 and 200', async () => {
      const messages: Record<string, string> = {};
      for (const limit of ['0', '201', '-1', '1.5', 'ten']) {
        const res = await s.api('GET', `/api/v1/issues?limit=${limit}`, { token: s.tokens.admin });
        expect(issuePaths(expectProblem(res, 400, 'validation_failed'), 'query')).toEqual(['limit']);
        messages[limit] = (res.json as { issues: { message: string }[] }).issues[0]?.message ?? '';
      }
      // Each names what is wrong: a bound for an integer out of range, the form for the rest.
      expect(messages['0']).toMatch(/>=\s*1/);
      expect(messages['201']).toMatch(/<=\s*200/);
      for (const limit of ['-1', '1.5', 'ten']) expect(messages[limit]).toMatch(/decimal integer/);
      for (const limit of ['1', '200']) {
        expectJson(await s.api('GET', `/api/v1/issues?limit=${limit}`, { token: s.tokens.admin }), 200);
      }
    });

    it('answers a bad status filter with validation_failed naming status', async () => {
      const res = await s.api('GET', '/api/v1/issues?status=done', { token: s.tokens.admin });
      expect(issuePaths(expectProblem(res, 400, 'validation_failed'), 'query')).toEqual(['status']);
    });

    it('answers malformed JSON with invalid_json', async () => {
      const res = await s.api('POST', '/api/v1/issues', {
        token: s.tokens.admin,
        headers: { 'Idempotency-Key': newKey(), 'Content-Type': 'application/json' },
        rawBody: '{"projectId": "prj_x", "title":',
      });
      expectProblem(res, 400, 'invalid_json');
    });

    it('answers a tampered cursor with invalid_cursor', async () => {
      await createIssue({ title: 'one' });
      await createIssue({ title: 'two' });
      const first = await listIssues('?limit=1');
      const cursor: string = first.nextCursor;
      expect(cursor).toEqual(expect.any(String));
      const [payload, sum] = cursor.split('.') as [string, string];
      const flipped = `${payload.slice(0, -1)}${payload.endsWith('A') ? 'B' : 'A'}.${sum}`;
      // The replacement character always differs from the one it replaces (1 in 64 sums end in x).
      const badSum = `${payload}.${sum.slice(0, -1)}${sum.endsWith('x') ? 'y' : 'x'}`;
      // An empty cursor is no cursor (the first page), as the OpenAPI document's string allows.
      for (const bad of [flipped, badSum, 'not-a-cursor', `${cursor}.extra`, cursor.repeat(20)]) {
        const res = await s.api('GET', `/api/v1/issues?limit=1&cursor=${encodeURIComponent(bad)}`, {
          token: s.tokens.admin,
        });
        expectProblem(res, 400, 'invalid_cursor');
      }
    });

    it('ignores the body of a GET, as every host must (a fetch Request cannot even carry one)', async () => {
      const issue = await createIssue({ title: 'Read with a body' });
      for (const [contentType, body] of [
        ['application/json', '{}'],
        ['application/json', 'not json'],
        ['text/plain', 'x'],
      ] as const) {
        for (const path of ['/api/v1/issues', `/api/v1/issues/${issue.id}`]) {
          const answered = await getWithBody(`${s.url}${path}`, s.tokens.admin, contentType, body);
          expect(answered.status, `${contentType} ${body} ${path}: ${answered.text}`).toBe(200);
        }
      }
    });

    it('answers a cursor reused with other filters with invalid_cursor', async () => {
      await createIssue({ title: 'one', severity: 'high' });
      await createIssue({ title: 'two', severity: 'high' });
      const first = await listIssues('?limit=1&severity=high');
      const cursor = encodeURIComponent(first.nextCursor);
      for (const query of [
        `?limit=1&cursor=${cursor}`,
        `?limit=1&cursor=${cursor}&severity=low`,
        `?limit=1&cursor=${cursor}&severity=high&status=open`,
        `?limit=1&cursor=${cursor}&severity=high&q=one`,
      ]) {
        expectProblem(
          await s.api('GET', `/api/v1/issues${query}`, { token: s.tokens.admin }),
          400,
          'invalid_cursor',
        );
      }
      // The same filters with another page size are fine.
      const next = await listIssues(`?limit=5&cursor=${cursor}&severity=high`);
      expect(next.data).toHaveLength(1);
    });

    it('answers an If-Match that is not an entity tag with validation_failed naming the header', async () => {
      const issue = await createIssue();
      const res = await s.api('PATCH', `/api/v1/issues/${issue.id}`, {
        token: s.tokens.admin,
        headers: { 'If-Match': 'version-1' },
        body: { title: 'x' },
      });
      expect(issuePaths(expectProblem(res, 400, 'validation_failed'), 'header')).toEqual(['if-match']);
    });

    it('answers a create without an Idempotency-Key with idempotency_key_missing', async () => {
      const res = await s.api('POST', '/api/v1/issues', {
        token: s.tokens.admin,
        body: { projectId: s.ws.projectId, title: 'x' },
      });
      expectProblem(res, 400, 'idempotency_key_missing');
      expect((await listIssues()).total).toBe(0);
    });

    it('answers an Idempotency-Key that is not a UUID with idempotency_key_invalid', async () => {
      for (const key of ['abc', '12345', 'e4a1b3c2-0000-4000-8000', `${newKey()}x`]) {
        const res = await s.api('POST', '/api/v1/issues', {
          token: s.tokens.admin,
          headers: { 'Idempotency-Key': key },
          body: { projectId: s.ws.projectId, title: 'x' },
        });
        expectProblem(res, 400, 'idempotency_key_invalid');
      }
      expect((await listIssues()).total).toBe(0);
    });
  });

  describe('401 Unauthorized', () => {
    const expectUnauthorized = (res: ApiResponse) => {
      const problem = expectProblem(res, 401, 'unauthorized');
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer( |$)/);
      return problem;
    };

    it('answers a request without an Authorization header with 401 and WWW-Authenticate: Bearer', async () => {
      expectUnauthorized(await s.api('GET', '/api/v1/issues'));
      expectUnauthorized(
        await s.api('POST', '/api/v1/issues', {
          headers: { 'Idempotency-Key': newKey() },
          body: { projectId: s.ws.projectId, title: 'x' },
        }),
      );
    });

    it('answers malformed Authorization headers with 401', async () => {
      for (const header of [
        `Basic ${Buffer.from('admin:secret').toString('base64')}`,
        'Bearer',
        'Bearer ',
        `Token ${s.tokens.admin}`,
        s.tokens.admin,
        `Bearer ${s.tokens.admin} extra`,
        'Bearer cn_short',
        `Bearer xx_${'a'.repeat(40)}`,
      ]) {
        expectUnauthorized(await s.api('GET', '/api/v1/issues', { headers: { Authorization: header } }));
      }
    });

    it('answers an unknown token with 401', async () => {
      expectUnauthorized(await s.api('GET', '/api/v1/issues', { token: `cn_${'Z'.repeat(40)}` }));
    });

    it('refuses a revoked token at once', async () => {
      expectJson(await s.api('GET', '/api/v1/issues', { token: s.tokens.member.plain }), 200);
      await s.storage.transaction((tx) => tx.tokens.revoke(s.tokens.member.id, iso(s.clock.now())));
      expectUnauthorized(await s.api('GET', '/api/v1/issues', { token: s.tokens.member.plain }));
      expectUnauthorized(
        await s.api('POST', '/api/v1/issues', {
          token: s.tokens.member.plain,
          headers: { 'Idempotency-Key': newKey() },
          body: { projectId: s.ws.projectId, title: 'x' },
        }),
      );
      // The user's other tokens keep working.
      const other = await s.issueToken(s.tokens.member.userId, 'read_write');
      expectJson(await s.api('GET', '/api/v1/issues', { token: other.plain }), 200);
    });

    it('refuses the token of a user removed from the workspace at once', async () => {
      expectJson(await s.api('GET', '/api/v1/issues', { token: s.tokens.member.plain }), 200);
      await s.storage.transaction((tx) =>
        tx.tenancy.removeMembership(s.ws.workspaceId, s.tokens.member.userId),
      );
      expectUnauthorized(await s.api('GET', '/api/v1/issues', { token: s.tokens.member.plain }));
    });

    it('answers an unknown API path without a token with 401, not 404', async () => {
      expectUnauthorized(await s.api('GET', '/api/v1/widgets'));
    });
  });

  describe('403 Forbidden', () => {
    it('answers a read-scope token that POSTs with insufficient_scope', async () => {
      const res = await s.api('POST', '/api/v1/issues', {
        token: s.tokens.read.plain,
        headers: { 'Idempotency-Key': newKey() },
        body: { projectId: s.ws.projectId, title: 'x' },
      });
      expectProblem(res, 403, 'insufficient_scope');
      expect((await listIssues()).total).toBe(0);
    });

    it('answers a read-scope token that PATCHes or transitions with insufficient_scope, and lets it read', async () => {
      const issue = await createIssue();
      expectProblem(
        await s.api('PATCH', `/api/v1/issues/${issue.id}`, {
          token: s.tokens.read.plain,
          headers: { 'If-Match': '"1"' },
          body: { severity: 'low' },
        }),
        403,
        'insufficient_scope',
      );
      expectProblem(
        await s.api('POST', `/api/v1/issues/${issue.id}/transition`, {
          token: s.tokens.read.plain,
          body: { to: 'closed' },
        }),
        403,
        'insufficient_scope',
      );
      expect(
        expectJson(await s.api('GET', `/api/v1/issues/${issue.id}`, { token: s.tokens.read.plain }), 200),
      ).toEqual(issue);
    });

    it("answers a viewer's read_write token that POSTs with forbidden, and lets it read", async () => {
      const res = await s.api('POST', '/api/v1/issues', {
        token: s.tokens.viewer.plain,
        headers: { 'Idempotency-Key': newKey() },
        body: { projectId: s.ws.projectId, title: 'x' },
      });
      expectProblem(res, 403, 'forbidden');
      expect((await listIssues('', s.tokens.viewer.plain)).total).toBe(0);
    });

    it('answers the next POST of a user demoted to viewer with forbidden', async () => {
      await createIssue({}, { token: s.tokens.member.plain });
      await s.storage.transaction(async (tx) => {
        const membership = await tx.tenancy.getMembership(s.ws.workspaceId, s.tokens.member.userId);
        if (!membership) throw new Error('member missing');
        await tx.tenancy.putMembership({ ...membership, role: 'viewer' });
      });
      const res = await s.api('POST', '/api/v1/issues', {
        token: s.tokens.member.plain,
        headers: { 'Idempotency-Key': newKey() },
        body: { projectId: s.ws.projectId, title: 'second' },
      });
      expectProblem(res, 403, 'forbidden');
      expect((await listIssues()).total).toBe(1);
    });
  });
}
