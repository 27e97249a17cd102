import { beforeEach, describe, expect, it } from 'vitest';
import { newKey, type TestServer } from './harness.js';
import {
  expectCommonHeaders,
  expectJson,
  expectProblem,
  type HttpSuiteContext,
  issuePaths,
  pathTo,
  statuses,
  transitionTable,
} from './suite-support.js';

/** The HTTP suite's part on the 404, 405, 409, 413, 415, 422, 428 and 429 answers, and conditional GET. */
export function pipelineStatuses(t: HttpSuiteContext): void {
  let s: TestServer;
  beforeEach(() => {
    s = t.server();
  });
  const { startExtra, createIssue, transition, signals, listIssues } = t;

  describe('404 Not Found', () => {
    it('answers an unknown issue id with not_found on GET, PATCH and transition', async () => {
      expectProblem(
        await s.api('GET', '/api/v1/issues/iss_doesnotexist', { token: s.tokens.admin }),
        404,
        'not_found',
      );
      expectProblem(
        await s.api('PATCH', '/api/v1/issues/iss_doesnotexist', {
          token: s.tokens.admin,
          headers: { 'If-Match': '"1"' },
          body: { severity: 'low' },
        }),
        404,
        'not_found',
      );
      expectProblem(await transition('iss_doesnotexist', 'closed'), 404, 'not_found');
      expectProblem(
        await s.api('GET', '/api/v1/issues/APO-404', { token: s.tokens.admin }),
        404,
        'not_found',
      );
    });

    it("answers another workspace's issue with 404, never 403, and leaves it untouched", async () => {
      const id = s.other.issueId;
      expectProblem(await s.api('GET', `/api/v1/issues/${id}`, { token: s.tokens.admin }), 404, 'not_found');
      expectProblem(
        await s.api('GET', `/api/v1/issues/${id}`, { token: s.tokens.read.plain }),
        404,
        'not_found',
      );
      expectProblem(
        await s.api('PATCH', `/api/v1/issues/${id}`, {
          token: s.tokens.admin,
          headers: { 'If-Match': '"1"' },
          body: { title: 'hijacked' },
        }),
        404,
        'not_found',
      );
      expectProblem(await transition(id, 'closed'), 404, 'not_found');
      // Its key (APO-1 in the other workspace) does not find it either.
      expectProblem(
        await s.api('GET', `/api/v1/issues/${s.other.issueKey}`, { token: s.tokens.admin }),
        404,
        'not_found',
      );
      const theirs = expectJson(
        await s.api('GET', `/api/v1/issues/${id}`, { token: s.other.adminToken }),
        200,
      );
      expect(theirs).toMatchObject({ title: 'Globex secret issue', status: 'open', version: 1 });
      expect((await listIssues()).total).toBe(0);
    });

    it('answers an unknown path with not_found', async () => {
      for (const path of ['/api/v1/widgets', '/api/v1/issues/iss_x/comments', '/api/v2/issues']) {
        expectProblem(await s.api('GET', path, { token: s.tokens.admin }), 404, 'not_found');
      }
      // Outside the API a browser is asking: the 404 is a page (test/admin/pages-outside-api.test.ts).
      const page = await s.api('GET', '/nope');
      expect(page.status).toBe(404);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    });
  });

  describe('405 Method Not Allowed', () => {
    it('answers DELETE /api/v1/issues/{id} with method_not_allowed and Allow: GET, HEAD, PATCH', async () => {
      const issue = await createIssue();
      const res = await s.api('DELETE', `/api/v1/issues/${issue.id}`, { token: s.tokens.admin });
      expectProblem(res, 405, 'method_not_allowed');
      expect(res.headers.get('allow')).toBe('GET, HEAD, PATCH');
      expect(
        expectJson(await s.api('GET', `/api/v1/issues/${issue.id}`, { token: s.tokens.admin }), 200),
      ).toEqual(issue);
    });

    it('answers PUT /api/v1/issues with method_not_allowed and Allow: GET, HEAD, POST', async () => {
      const res = await s.api('PUT', '/api/v1/issues', { token: s.tokens.admin, body: {} });
      expectProblem(res, 405, 'method_not_allowed');
      expect(res.headers.get('allow')).toBe('GET, HEAD, POST');
    });
  });

  describe('409 Conflict', () => {
    it('answers a PATCH with a stale If-Match with version_conflict and the current ETag', async () => {
      const issue = await createIssue();
      expectJson(
        await s.api('PATCH', `/api/v1/issues/${issue.id}`, {
          token: s.tokens.admin,
          headers: { 'If-Match': '"1"' },
          body: { severity: 'high' },
        }),
        200,
      );
      const before = await signals();
      const res = await s.api('PATCH', `/api/v1/issues/${issue.id}`, {
        token: s.tokens.member.plain,
        headers: { 'If-Match': '"1"' },
        body: { title: 'stale write' },
      });
      expectProblem(res, 409, 'version_conflict');
      expect(res.headers.get('etag')).toBe('"2"');
      const current = expectJson(
        await s.api('GET', `/api/v1/issues/${issue.id}`, { token: s.tokens.admin }),
        200,
      );
      expect(current).toMatchObject({ title: issue.title, severity: 'high', version: 2 });
      expect(await signals()).toEqual(before);
    });

    it('answers a transition with a stale If-Match with version_conflict and the current ETag', async () => {
      const issue = await createIssue();
      expectJson(await transition(issue.id, 'in_progress'), 200);
      const res = await transition(issue.id, 'resolved', { 'If-Match': '"1"' });
      expectProblem(res, 409, 'version_conflict');
      expect(res.headers.get('etag')).toBe('"2"');
      expectJson(await transition(issue.id, 'resolved', { 'If-Match': '"2"' }), 200);
    });
  });

  describe('413 and 415', () => {
    it('answers a body over 1 MiB with payload_too_large', async () => {
      const title = 'x'.repeat(1024 * 1024);
      const res = await s.api('POST', '/api/v1/issues', {
        token: s.tokens.admin,
        headers: { 'Idempotency-Key': newKey() },
        body: { projectId: s.ws.projectId, title },
      });
      expectProblem(res, 413, 'payload_too_large');
      expect((await listIssues()).total).toBe(0);
    });

    it('answers a body far over 1 MiB (8 MiB) with payload_too_large', async () => {
      const res = await s.api('POST', '/api/v1/issues', {
        token: s.tokens.admin,
        headers: { 'Idempotency-Key': newKey(), 'Content-Type': 'application/json' },
        rawBody: `{"title":"${'x'.repeat(8 * 1024 * 1024)}"}`,
      });
      expectProblem(res, 413, 'payload_too_large');
      // The server still answers afterwards.
      expectJson(await s.api('GET', '/api/v1/issues', { token: s.tokens.admin }), 200);
    });

    it('does not refuse a body of exactly 1 MiB as too large', async () => {
      const prefix = JSON.stringify({ projectId: s.ws.projectId, title: 'x', description: '' }).slice(0, -2);
      const rawBody = `${prefix}${'d'.repeat(1024 * 1024 - prefix.length - 2)}"}`;
      expect(Buffer.byteLength(rawBody)).toBe(1024 * 1024);
      const res = await s.api('POST', '/api/v1/issues', {
        token: s.tokens.admin,
        headers: { 'Idempotency-Key': newKey(), 'Content-Type': 'application/json' },
        rawBody,
      });
      // The description is over its own 50 000-character limit: a validation error, not a 413.
      expect(issuePaths(expectProblem(res, 400, 'validation_failed'), 'body')).toEqual(['description']);
    });

    it('answers a body in another charset, or compressed, with unsupported_media_type', async () => {
      const body = JSON.stringify({ projectId: s.ws.projectId, title: 'x' });
      const send = (headers: Record<string, string>) =>
        s.api('POST', '/api/v1/issues', {
          token: s.tokens.admin,
          headers: { 'Idempotency-Key': newKey(), ...headers },
          rawBody: body,
        });
      expectProblem(
        await send({ 'Content-Type': 'application/json; charset=utf-16' }),
        415,
        'unsupported_media_type',
      );
      const compressed = await send({ 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' });
      expectProblem(compressed, 415, 'unsupported_media_type');
      expect(compressed.headers.get('accept-encoding')).toBe('identity');
      expect((await listIssues()).total).toBe(0);
      for (const headers of <Record<string, string>[]>[
        { 'Content-Type': 'application/json; charset=UTF-8' },
        { 'Content-Type': 'application/json; charset="utf-8"' },
        { 'Content-Type': 'application/json', 'Content-Encoding': 'identity' },
      ]) {
        expect((await send(headers)).status).toBe(201);
      }
    });

    it('answers a text/plain body with unsupported_media_type', async () => {
      const res = await s.api('POST', '/api/v1/issues', {
        token: s.tokens.admin,
        headers: { 'Idempotency-Key': newKey(), 'Content-Type': 'text/plain' },
        rawBody: JSON.stringify({ projectId: s.ws.projectId, title: 'x' }),
      });
      expectProblem(res, 415, 'unsupported_media_type');
      expect((await listIssues()).total).toBe(0);
    });
  });

  describe('422 Unprocessable Content', () => {
    it('answers the same Idempotency-Key with another body with idempotency_key_reused', async () => {
      const key = newKey();
      await createIssue({ title: 'first' }, { key });
      const res = await s.api('POST', '/api/v1/issues', {
        token: s.tokens.admin,
        headers: { 'Idempotency-Key': key },
        body: { projectId: s.ws.projectId, title: 'second' },
      });
      expectProblem(res, 422, 'idempotency_key_reused');
      const list = await listIssues();
      expect(list.data.map((i: { title: string }) => i.title)).toEqual(['first']);
    });

    it('does not store an error response: the same key then succeeds with a corrected body', async () => {
      const key = newKey();
      const bad = await s.api('POST', '/api/v1/issues', {
        token: s.tokens.admin,
        headers: { 'Idempotency-Key': key },
        body: { projectId: s.other.projectId, title: 'x' },
      });
      expectProblem(bad, 422, 'invalid_reference');
      const good = await createIssue({ title: 'x' }, { key });
      expect(good.number).toBe(1);
    });

    it('answers an invalid transition with invalid_transition, from, to and allowed as in the contract', async () => {
      const issue = await createIssue();
      const problem = expectProblem(await transition(issue.id, 'open'), 422, 'invalid_transition');
      expect(problem).toMatchObject({
        from: 'open',
        to: 'open',
        allowed: ['in_progress', 'blocked', 'resolved', 'closed'],
      });
    });

    it('allows exactly the pairs of the transition table and refuses every other pair', async () => {
      const t = await startExtra({ rateLimit: { limit: 10_000 } });
      for (const from of statuses) {
        for (const to of statuses) {
          const issue = await createIssue({ title: `${from} to ${to}` }, { server: t });
          for (const step of pathTo[from]) {
            const res = await t.api('POST', `/api/v1/issues/${issue.id}/transition`, {
              token: t.tokens.admin,
              body: { to: step },
            });
            expect(res.status).toBe(200);
          }
          const res = await t.api('POST', `/api/v1/issues/${issue.id}/transition`, {
            token: t.tokens.member.plain,
            body: { to },
          });
          if (transitionTable[from].includes(to)) {
            expect({ from, to, status: res.status }).toEqual({ from, to, status: 200 });
            expect(res.json.status).toBe(to);
          } else {
            const problem = expectProblem(res, 422, 'invalid_transition', 10_000);
            expect({ from: problem.from, to: problem.to, allowed: problem.allowed }).toEqual({
              from,
              to,
              allowed: transitionTable[from],
            });
          }
        }
      }
    });

    it('answers a projectId of another workspace with invalid_reference', async () => {
      const res = await s.api('POST', '/api/v1/issues', {
        token: s.tokens.admin,
        headers: { 'Idempotency-Key': newKey() },
        body: { projectId: s.other.projectId, title: 'x' },
      });
      expect(expectProblem(res, 422, 'invalid_reference')).toMatchObject({ field: 'projectId' });
    });

    it('answers an assignee who is not a member of the workspace with invalid_reference', async () => {
      const res = await s.api('POST', '/api/v1/issues', {
        token: s.tokens.admin,
        headers: { 'Idempotency-Key': newKey() },
        body: { projectId: s.ws.projectId, title: 'x', assigneeId: s.other.adminUserId },
      });
      expect(expectProblem(res, 422, 'invalid_reference')).toMatchObject({ field: 'assigneeId' });
    });
  });

  describe('428 Precondition Required', () => {
    it('answers a PATCH without If-Match with precondition_required and changes nothing', async () => {
      const issue = await createIssue();
      const res = await s.api('PATCH', `/api/v1/issues/${issue.id}`, {
        token: s.tokens.admin,
        body: { severity: 'critical' },
      });
      expectProblem(res, 428, 'precondition_required');
      expect(
        expectJson(await s.api('GET', `/api/v1/issues/${issue.id}`, { token: s.tokens.admin }), 200).severity,
      ).toBe('medium');
    });
  });

  describe('429 Too Many Requests', () => {
    it('answers the 4th request of a token limited to 3 with rate_limited and Retry-After', async () => {
      const t = await startExtra({ rateLimit: { limit: 3 } });
      const remaining: (string | null)[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await t.api('GET', '/api/v1/issues', { token: t.tokens.admin });
        expectJson(res, 200, 3);
        remaining.push(res.headers.get('x-ratelimit-remaining'));
      }
      expect(remaining).toEqual(['2', '1', '0']);
      const res = await t.api('GET', '/api/v1/issues', { token: t.tokens.admin });
      const problem = expectProblem(res, 429, 'rate_limited', 3);
      const retryAfter = res.headers.get('retry-after');
      // 3 in any 60 s, all sent at one instant of the fake clock: the first frees in 60 s.
      expect(retryAfter).toBe('60');
      expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(res.headers.get('x-ratelimit-reset')).toBe(retryAfter);
      expect(problem.retryAfter).toBe(Number(retryAfter));
    });

    it('counts each token on its own and frees a slot as time passes', async () => {
      const t = await startExtra({ rateLimit: { limit: 3 } });
      for (let i = 0; i < 3; i++)
        expectJson(await t.api('GET', '/api/v1/issues', { token: t.tokens.admin }), 200, 3);
      expectProblem(await t.api('GET', '/api/v1/issues', { token: t.tokens.admin }), 429, 'rate_limited', 3);
      expectJson(await t.api('GET', '/api/v1/issues', { token: t.tokens.member.plain }), 200, 3);
      // The oldest of the 3 leaves the window 60 s after it was admitted; not a moment before.
      t.clock.advance(59_999);
      expectProblem(await t.api('GET', '/api/v1/issues', { token: t.tokens.admin }), 429, 'rate_limited', 3);
      // All 3 were admitted at one instant, so all 3 slots free at once.
      t.clock.advance(1);
      for (let i = 0; i < 3; i++)
        expectJson(await t.api('GET', '/api/v1/issues', { token: t.tokens.admin }), 200, 3);
      expectProblem(await t.api('GET', '/api/v1/issues', { token: t.tokens.admin }), 429, 'rate_limited', 3);
    });

    it('limits requests without a valid token by client address, with the headers on the 401s too', async () => {
      const t = await startExtra({ rateLimit: { limit: 3 } });
      for (let i = 0; i < 3; i++) {
        const res = await t.api('GET', '/api/v1/issues');
        expectProblem(res, 401, 'unauthorized', 3);
      }
      const res = await t.api('GET', '/api/v1/issues', { token: `cn_${'Q'.repeat(40)}` });
      expectProblem(res, 429, 'rate_limited', 3);
      expect(res.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
      // A valid token is counted on its own.
      expectJson(await t.api('GET', '/api/v1/issues', { token: t.tokens.admin }), 200, 3);
    });
  });

  describe('conditional GET (200 with ETag, 304)', () => {
    it('answers If-None-Match with the current ETag with 304 and no body, and a stale one with 200', async () => {
      const issue = await createIssue();
      const got = await s.api('GET', `/api/v1/issues/${issue.id}`, { token: s.tokens.admin });
      expect(expectJson(got, 200)).toEqual(issue);
      const etag = got.headers.get('etag');
      expect(etag).toBe('"1"');
      const notModified = await s.api('GET', `/api/v1/issues/${issue.id}`, {
        token: s.tokens.admin,
        headers: { 'If-None-Match': etag ?? '' },
      });
      expect(notModified.status).toBe(304);
      expect(notModified.text).toBe('');
      expect(notModified.headers.get('etag')).toBe('"1"');
      expectCommonHeaders(notModified);

      expectJson(
        await s.api('PATCH', `/api/v1/issues/${issue.id}`, {
          token: s.tokens.admin,
          headers: { 'If-Match': '"1"' },
          body: { title: 'Renamed' },
        }),
        200,
      );
      const changed = await s.api('GET', `/api/v1/issues/${issue.id}`, {
        token: s.tokens.admin,
        headers: { 'If-None-Match': '"1"' },
      });
      expect(expectJson(changed, 200).title).toBe('Renamed');
      expect(changed.headers.get('etag')).toBe('"2"');
    });

    it('answers a weak If-None-Match of the current version with 304 too', async () => {
      const issue = await createIssue();
      const res = await s.api('GET', `/api/v1/issues/${issue.key}`, {
        token: s.tokens.admin,
        headers: { 'If-None-Match': '"7", W/"1"' },
      });
      expect(res.status).toBe(304);
      expect(res.headers.get('etag')).toBe('"1"');
    });

    it('answers HEAD like GET, with the ETag and without a body', async () => {
      const issue = await createIssue();
      const res = await s.api('HEAD', `/api/v1/issues/${issue.id}`, { token: s.tokens.admin });
      expect(res.status).toBe(200);
      expect(res.text).toBe('');
      expect(res.headers.get('etag')).toBe('"1"');
      expectCommonHeaders(res);
    });
  });
}
