import { request as httpRequest } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memoryStorage } from '../../src/adapters/memory/index.js';
import type { IssueStatus, SignalEvent } from '../../src/core/index.js';
import type { AdapterUnderTest } from '../support/adapters.js';
import { failingStorage } from '../support/failing-storage.js';
import {
  type ApiResponse,
  type Host,
  newKey,
  type ServerOptions,
  startServer,
  startTime,
  type TestServer,
} from './harness.js';

/** The contract's transition table (§5), copied here so the suite checks the code against the text. */
const transitionTable: Record<IssueStatus, IssueStatus[]> = {
  open: ['in_progress', 'blocked', 'resolved', 'closed'],
  in_progress: ['open', 'blocked', 'resolved'],
  blocked: ['open', 'in_progress', 'resolved'],
  resolved: ['closed', 'open'],
  closed: ['open'],
};
const statuses = Object.keys(transitionTable) as IssueStatus[];

/** How to bring a fresh (open) issue to each status with allowed transitions. */
const pathTo: Record<IssueStatus, IssueStatus[]> = {
  open: [],
  in_progress: ['in_progress'],
  blocked: ['blocked'],
  resolved: ['resolved'],
  closed: ['closed'],
};

const iso = (ms: number) => new Date(ms).toISOString();

/** A GET that carries a body, which fetch refuses to send: through node:http. */
function getWithBody(
  url: string,
  token: string,
  contentType: string,
  body: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, {
      method: 'GET',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': contentType,
        'content-length': String(Buffer.byteLength(body)),
      },
    });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (chunk) => {
        text += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}
const mediaType = (res: ApiResponse) => res.headers.get('content-type')?.split(';')[0]?.trim();
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** X-Request-Id and the five rate-limit headers of CONTRACT §4, consistent with each other. */
function expectCommonHeaders(res: ApiResponse, limit = 100): void {
  expect(res.headers.get('x-request-id')).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
  expect(res.headers.get('x-ratelimit-limit')).toBe(String(limit));
  const remaining = res.headers.get('x-ratelimit-remaining');
  const reset = res.headers.get('x-ratelimit-reset');
  expect(remaining).toMatch(/^\d+$/);
  expect(reset).toMatch(/^\d+$/);
  expect(Number(remaining)).toBeLessThanOrEqual(limit);
  expect(res.headers.get('ratelimit-policy')).toBe(`"default";q=${limit};w=60`);
  expect(res.headers.get('ratelimit')).toBe(`"default";r=${remaining};t=${reset}`);
}

/** A problem+json response with exactly this status and error code; returns its body. */
// biome-ignore lint/suspicious/noExplicitAny: the problem body carries per-error extras
function expectProblem(res: ApiResponse, status: number, error: string, limit = 100): any {
  expect({ status: res.status, error: res.json?.error }).toEqual({ status, error });
  expect(mediaType(res)).toBe('application/problem+json');
  expect(res.json).toMatchObject({
    type: expect.stringMatching(/\S/),
    title: expect.stringMatching(/\S/),
    status,
    detail: expect.stringMatching(/\S/),
    error,
  });
  // Never a stack trace in an error body.
  expect(res.text).not.toMatch(/\bat .+\.(ts|js):\d+/);
  expectCommonHeaders(res, limit);
  return res.json;
}

/** A JSON success with exactly this status; returns its body. */
// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON members
function expectJson(res: ApiResponse, status: number, limit = 100): any {
  expect({ status: res.status, body: res.status === status ? undefined : res.json }).toEqual({
    status,
    body: undefined,
  });
  expect(mediaType(res)).toBe('application/json');
  expectCommonHeaders(res, limit);
  return res.json;
}

/** The validation issues' paths of one location. */
// biome-ignore lint/suspicious/noExplicitAny: problem extras
const issuePaths = (problem: any, location: string): string[] =>
  (problem.issues as { in: string; path: string }[]).filter((i) => i.in === location).map((i) => i.path);

/** Runs the suite through `host`, on memory storage unless an adapter under test is given. */
export function runHttpSuite(host: Host, adapter?: AdapterUnderTest): void {
  const on = adapter ? ` on ${adapter.name} storage` : '';
  /** Server options with a fresh store of the adapter, unless they bring their own storage. */
  const withStorage = async (options: ServerOptions = {}): Promise<ServerOptions> =>
    adapter && !options.storage ? { ...options, storage: await adapter.create() } : options;

  describe(`the HTTP API served by the ${host} host${on}`, () => {
    let s: TestServer;
    const extra: TestServer[] = [];

    /** Another server with other options, closed after the test. */
    const startExtra = async (options: ServerOptions) => {
      const server = await startServer(host, await withStorage(options));
      extra.push(server);
      return server;
    };

    beforeEach(async () => {
      s = await startServer(host, await withStorage());
    });

    afterEach(async () => {
      await Promise.all([s.close(), ...extra.splice(0).map((x) => x.close())]);
    });

    const createIssue = async (
      body: Record<string, unknown> = {},
      options: { token?: string; key?: string; server?: TestServer } = {},
    ) => {
      const server = options.server ?? s;
      const res = await server.api('POST', '/api/v1/issues', {
        token: options.token ?? server.tokens.admin,
        headers: { 'Idempotency-Key': options.key ?? newKey() },
        body: { projectId: server.ws.projectId, title: 'Login fails on Safari', ...body },
      });
      return expectJson(res, 201, server.limit ?? undefined);
    };

    const transition = (id: string, to: IssueStatus, headers: Record<string, string> = {}) =>
      s.api('POST', `/api/v1/issues/${id}/transition`, { token: s.tokens.admin, body: { to }, headers });

    const signals = (server = s): Promise<SignalEvent[]> =>
      server.storage.transaction((tx) => tx.signals.list({ accountId: server.ws.accountId, limit: 100 }));

    const listIssues = async (query = '', token = s.tokens.admin) =>
      expectJson(await s.api('GET', `/api/v1/issues${query}`, { token }), 200);

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

    describe('creating issues (201, idempotent replay 200)', () => {
      it('answers a first create with 201, an ETag and the issue with its defaults', async () => {
        const res = await s.api('POST', '/api/v1/issues', {
          token: s.tokens.member.plain,
          headers: { 'Idempotency-Key': newKey() },
          body: { projectId: s.ws.projectId, title: 'Login fails on Safari' },
        });
        const issue = expectJson(res, 201);
        expect(res.headers.get('etag')).toBe('"1"');
        expect(res.headers.get('idempotent-replayed')).toBeNull();
        expect(issue).toEqual({
          id: expect.stringMatching(/^iss_[0-9A-Za-z]+$/),
          projectId: s.ws.projectId,
          number: 1,
          key: 'APO-1',
          title: 'Login fails on Safari',
          description: null,
          severity: 'medium',
          status: 'open',
          outcomeId: null,
          assigneeId: null,
          labels: [],
          resolvedAt: null,
          commentCount: 0,
          parentId: null,
          blockedBy: 0,
          subIssues: 0,
          archivedAt: null,
          external: null,
          dueOn: null,
          estimate: null,
          createdAt: iso(startTime),
          updatedAt: iso(startTime),
          version: 1,
        });
      });

      it('replays the same key and body with 200, Idempotent-Replayed: true and the 201 body, creating nothing', async () => {
        const key = newKey();
        const first = await s.api('POST', '/api/v1/issues', {
          token: s.tokens.admin,
          headers: { 'Idempotency-Key': key },
          body: { projectId: s.ws.projectId, title: 'Crash on save', severity: 'high' },
        });
        expectJson(first, 201);
        s.clock.advance(5_000);
        // The same body with its keys in another order is the same request.
        const replay = await s.api('POST', '/api/v1/issues', {
          token: s.tokens.admin,
          headers: { 'Idempotency-Key': key },
          body: { severity: 'high', title: 'Crash on save', projectId: s.ws.projectId },
        });
        expectJson(replay, 200);
        expect(replay.headers.get('idempotent-replayed')).toBe('true');
        expect(replay.text).toBe(first.text);
        expect(replay.headers.get('etag')).toBe(first.headers.get('etag'));
        const list = await listIssues();
        expect(list.total).toBe(1);
        expect((await signals()).filter((e) => e.type === 'issue.created')).toHaveLength(1);
      });

      it('replays the answer as first sent after the issue changed, its signal kept as long as the key even under a shorter retention', async () => {
        const replayAfterChange = async (t: TestServer) => {
          const key = newKey();
          const body = { projectId: t.ws.projectId, title: 'First title' };
          const first = await t.api('POST', '/api/v1/issues', {
            token: t.tokens.admin,
            headers: { 'Idempotency-Key': key },
            body,
          });
          const created = expectJson(first, 201);
          const patched = await t.api('PATCH', `/api/v1/issues/${created.id}`, {
            token: t.tokens.admin,
            headers: { 'If-Match': '"1"' },
            body: { title: 'Second title' },
          });
          expectJson(patched, 200);
          // Past the retention asked for below, within the key's 24 hours.
          t.clock.advance(23 * 60 * 60 * 1000);
          await t.tracker.purgeExpired();
          const replay = await t.api('POST', '/api/v1/issues', {
            token: t.tokens.admin,
            headers: { 'Idempotency-Key': key },
            body,
          });
          expectJson(replay, 200);
          expect(replay.text).toBe(first.text);
          expect(replay.headers.get('location')).toBe(first.headers.get('location'));
          const record = await t.storage.transaction((tx) => tx.idempotency.get(t.ws.workspaceId, key));
          const createdSignal = (await signals(t)).find((e) => e.type === 'issue.created');
          // The key refers to the issue.created signal for its answer instead of storing it again.
          expect(record?.body).toEqual({ signalId: createdSignal?.id });
        };
        await replayAfterChange(s);
        await replayAfterChange(await startExtra({ signalRetentionMs: 60 * 60 * 1000 }));
      });

      it('keeps signals an hour longer than keys, whatever retention is asked for', async () => {
        const t = await startExtra({ signalRetentionMs: 60 * 1000 });
        await createIssue({}, { server: t });
        t.clock.advance(25 * 60 * 60 * 1000 - 1);
        expect((await t.tracker.purgeExpired()).signals).toBe(0);
        t.clock.advance(2);
        expect((await t.tracker.purgeExpired()).signals).toBeGreaterThan(0);
        expect((await signals(t)).filter((e) => e.type === 'issue.created')).toHaveLength(0);
      });

      it('ignores the fields the service owns in a create body', async () => {
        const issue = await createIssue({
          status: 'closed',
          number: 99,
          key: 'ZZZ-9',
          resolvedAt: '2020-01-01T00:00:00.000Z',
          id: 'iss_chosenbyclient',
          version: 7,
        });
        expect(issue).toMatchObject({
          status: 'open',
          number: 1,
          key: 'APO-1',
          resolvedAt: null,
          version: 1,
        });
        expect(issue.id).not.toBe('iss_chosenbyclient');
      });

      it('creates exactly one issue for concurrent duplicates with one Idempotency-Key', async () => {
        const key = newKey();
        const responses = await Promise.all(
          Array.from({ length: 5 }, () =>
            s.api('POST', '/api/v1/issues', {
              token: s.tokens.admin,
              headers: { 'Idempotency-Key': key },
              body: { projectId: s.ws.projectId, title: 'Double click' },
            }),
          ),
        );
        expect(responses.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 201]);
        const created = responses.find((r) => r.status === 201);
        for (const r of responses) expect(r.text).toBe(created?.text);
        expect((await listIssues()).total).toBe(1);
      });

      it('replays a key for 24 hours and forgets it afterwards', async () => {
        const key = newKey();
        const first = await createIssue({ title: 'Daily' }, { key });
        s.clock.advance(24 * 60 * 60 * 1000 - 1);
        const replay = await s.api('POST', '/api/v1/issues', {
          token: s.tokens.admin,
          headers: { 'Idempotency-Key': key },
          body: { projectId: s.ws.projectId, title: 'Daily' },
        });
        expect(expectJson(replay, 200).id).toBe(first.id);
        s.clock.advance(2);
        const again = await createIssue({ title: 'Daily' }, { key });
        expect(again.id).not.toBe(first.id);
        expect(again.key).toBe('APO-2');
      });

      it('answers a key reused on another endpoint with idempotency_key_reused', async () => {
        const key = newKey();
        await createIssue({}, { key });
        const res = await s.api('POST', '/api/v1/projects', {
          token: s.tokens.admin,
          headers: { 'Idempotency-Key': key },
          body: { name: 'Gemini' },
        });
        expectProblem(res, 422, 'idempotency_key_reused');
        const projects = expectJson(await s.api('GET', '/api/v1/projects', { token: s.tokens.admin }), 200);
        expect(projects.total).toBe(1);
      });

      it('counts the query in the request a key names: the same create with a query the route refuses is no replay', async () => {
        const key = newKey();
        const first = await createIssue({ title: 'Queried' }, { key });
        const withQuery = await s.api('POST', '/api/v1/issues?x=1', {
          token: s.tokens.admin,
          headers: { 'Idempotency-Key': key },
          body: { projectId: s.ws.projectId, title: 'Queried' },
        });
        expectProblem(withQuery, 422, 'idempotency_key_reused');
        // Without it, the same request is the first one again, and replays.
        const replay = await s.api('POST', '/api/v1/issues', {
          token: s.tokens.admin,
          headers: { 'Idempotency-Key': key },
          body: { projectId: s.ws.projectId, title: 'Queried' },
        });
        expect(expectJson(replay, 200).id).toBe(first.id);
      });

      it('judges the key before the body: a reused key is 422 even where its body would not validate', async () => {
        const key = newKey();
        await createIssue({ severity: 'high' }, { key });
        // The issue's body on /outcomes: `severity` is no outcome field, yet the key decides first.
        const res = await s.api('POST', '/api/v1/outcomes', {
          token: s.tokens.admin,
          headers: { 'Idempotency-Key': key },
          body: { projectId: s.ws.projectId, title: 'Login fails on Safari', severity: 'high' },
        });
        expectProblem(res, 422, 'idempotency_key_reused');
        const outcomes = expectJson(await s.api('GET', '/api/v1/outcomes', { token: s.tokens.admin }), 200);
        expect(outcomes.total).toBe(0);
      });

      it('lets another workspace use the same Idempotency-Key for its own create', async () => {
        const key = newKey();
        const mine = await createIssue({}, { key });
        const theirs = await s.api('POST', '/api/v1/issues', {
          token: s.other.adminToken,
          headers: { 'Idempotency-Key': key },
          body: { projectId: s.other.projectId, title: 'Login fails on Safari' },
        });
        const created = expectJson(theirs, 201);
        expect(created.id).not.toBe(mine.id);
        expect(created.projectId).toBe(s.other.projectId);
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
        expectProblem(
          await s.api('GET', `/api/v1/issues/${id}`, { token: s.tokens.admin }),
          404,
          'not_found',
        );
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
        const prefix = JSON.stringify({ projectId: s.ws.projectId, title: 'x', description: '' }).slice(
          0,
          -2,
        );
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
          expectJson(await s.api('GET', `/api/v1/issues/${issue.id}`, { token: s.tokens.admin }), 200)
            .severity,
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
        expectProblem(
          await t.api('GET', '/api/v1/issues', { token: t.tokens.admin }),
          429,
          'rate_limited',
          3,
        );
        expectJson(await t.api('GET', '/api/v1/issues', { token: t.tokens.member.plain }), 200, 3);
        // The oldest of the 3 leaves the window 60 s after it was admitted; not a moment before.
        t.clock.advance(59_999);
        expectProblem(
          await t.api('GET', '/api/v1/issues', { token: t.tokens.admin }),
          429,
          'rate_limited',
          3,
        );
        // All 3 were admitted at one instant, so all 3 slots free at once.
        t.clock.advance(1);
        for (let i = 0; i < 3; i++)
          expectJson(await t.api('GET', '/api/v1/issues', { token: t.tokens.admin }), 200, 3);
        expectProblem(
          await t.api('GET', '/api/v1/issues', { token: t.tokens.admin }),
          429,
          'rate_limited',
          3,
        );
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

    describe('updating issues', () => {
      it('applies a PATCH, bumps the version and ETag, and ignores status in the body', async () => {
        const issue = await createIssue();
        s.clock.advance(60_000);
        const res = await s.api('PATCH', `/api/v1/issues/${issue.id}`, {
          token: s.tokens.member.plain,
          headers: { 'If-Match': '"1"' },
          body: { severity: 'critical', status: 'closed', labels: ['ios'] },
        });
        const updated = expectJson(res, 200);
        expect(res.headers.get('etag')).toBe('"2"');
        expect(updated).toEqual({
          ...issue,
          severity: 'critical',
          labels: ['ios'],
          status: 'open',
          version: 2,
          updatedAt: iso(startTime + 60_000),
        });
      });

      it('answers a PATCH carrying only status with the unchanged issue, the same version and no signal', async () => {
        const issue = await createIssue();
        const before = await signals();
        const res = await s.api('PATCH', `/api/v1/issues/${issue.id}`, {
          token: s.tokens.admin,
          headers: { 'If-Match': '"1"' },
          body: { status: 'resolved' },
        });
        expect(expectJson(res, 200)).toEqual(issue);
        expect(res.headers.get('etag')).toBe('"1"');
        expect(await signals()).toEqual(before);
      });

      it('accepts If-Match: * and a PATCH addressed by the issue key', async () => {
        const issue = await createIssue();
        const res = await s.api('PATCH', `/api/v1/issues/${issue.key}`, {
          token: s.tokens.admin,
          headers: { 'If-Match': '*' },
          body: { title: 'By key' },
        });
        expect(expectJson(res, 200)).toMatchObject({ id: issue.id, title: 'By key', version: 2 });
      });
    });

    describe('transitions', () => {
      it('sets resolvedAt on entering resolved and clears it on leaving', async () => {
        const issue = await createIssue();
        s.clock.advance(90_000);
        const resolved = await transition(issue.id, 'resolved');
        expect(expectJson(resolved, 200)).toMatchObject({
          status: 'resolved',
          resolvedAt: iso(startTime + 90_000),
          updatedAt: iso(startTime + 90_000),
          version: 2,
        });
        expect(resolved.headers.get('etag')).toBe('"2"');
        s.clock.advance(1_000);
        expect(expectJson(await transition(issue.id, 'open'), 200)).toMatchObject({
          status: 'open',
          resolvedAt: null,
          version: 3,
        });
        expectJson(await transition(issue.id, 'resolved'), 200);
        expect(expectJson(await transition(issue.id, 'closed'), 200)).toMatchObject({
          status: 'closed',
          resolvedAt: null,
          version: 5,
        });
      });

      it('replays a transition sent again with the same Idempotency-Key without a second change', async () => {
        const issue = await createIssue();
        const key = newKey();
        const first = await transition(issue.id, 'blocked', { 'Idempotency-Key': key });
        expectJson(first, 200);
        const again = await transition(issue.id, 'blocked', { 'Idempotency-Key': key });
        expectJson(again, 200);
        expect(again.headers.get('idempotent-replayed')).toBe('true');
        expect(again.text).toBe(first.text);
        expect((await signals()).filter((e) => e.type === 'issue.status_changed')).toHaveLength(1);
      });
    });

    describe('numbers and keys', () => {
      it('numbers issues per project and finds an issue by its key', async () => {
        const projectRes = await s.api('POST', '/api/v1/projects', {
          token: s.tokens.admin,
          headers: { 'Idempotency-Key': newKey() },
          body: { name: 'Mobile App' },
        });
        const mobile = expectJson(projectRes, 201);
        expect(mobile.key).toBe('MA');
        const a1 = await createIssue({ title: 'a1' });
        const a2 = await createIssue({ title: 'a2' });
        const m1 = await createIssue({ title: 'm1', projectId: mobile.id });
        const a3 = await createIssue({ title: 'a3' });
        expect([a1, a2, m1, a3].map((i) => [i.number, i.key])).toEqual([
          [1, 'APO-1'],
          [2, 'APO-2'],
          [1, 'MA-1'],
          [3, 'APO-3'],
        ]);
        const byKey = await s.api('GET', '/api/v1/issues/APO-1', { token: s.tokens.admin });
        expect(expectJson(byKey, 200)).toEqual(a1);
        expect(byKey.headers.get('etag')).toBe('"1"');
        expect(expectJson(await s.api('GET', '/api/v1/issues/MA-1', { token: s.tokens.admin }), 200)).toEqual(
          m1,
        );
        // The other tenant's APO-1 is its own issue.
        expect(
          expectJson(await s.api('GET', '/api/v1/issues/APO-1', { token: s.other.adminToken }), 200).id,
        ).toBe(s.other.issueId);
      });
    });

    describe('lists', () => {
      it('filters by projectId, status, severity, assigneeId and q', async () => {
        const mobile = expectJson(
          await s.api('POST', '/api/v1/projects', {
            token: s.tokens.admin,
            headers: { 'Idempotency-Key': newKey() },
            body: { name: 'Mobile App' },
          }),
          201,
        );
        const login = await createIssue({
          title: 'Login fails',
          severity: 'high',
          assigneeId: s.tokens.member.userId,
        });
        const crash = await createIssue({ title: 'Crash on export', severity: 'critical' });
        const mobileLogin = await createIssue({
          title: 'Mobile login spinner',
          projectId: mobile.id,
          assigneeId: s.tokens.member.userId,
        });
        const typo = await createIssue({
          title: 'Typo',
          description: 'the LOGIN page says "Sing in"',
          severity: 'low',
        });
        expectJson(await transition(crash.id, 'in_progress'), 200);

        const ids = async (query: string) => {
          const page = await listIssues(query);
          expect(page.total).toBe(page.data.length);
          expect(page.nextCursor).toBeNull();
          return (page.data as { id: string }[]).map((i) => i.id).sort();
        };
        const sorted = (...issues: { id: string }[]) => issues.map((i) => i.id).sort();
        expect(await ids('')).toEqual(sorted(login, crash, mobileLogin, typo));
        expect(await ids(`?projectId=${mobile.id}`)).toEqual(sorted(mobileLogin));
        expect(await ids(`?projectId=${s.ws.projectId}`)).toEqual(sorted(login, crash, typo));
        expect(await ids('?status=in_progress')).toEqual(sorted(crash));
        expect(await ids('?status=open')).toEqual(sorted(login, mobileLogin, typo));
        expect(await ids('?severity=medium')).toEqual(sorted(mobileLogin));
        expect(await ids('?severity=critical')).toEqual(sorted(crash));
        expect(await ids(`?assigneeId=${s.tokens.member.userId}`)).toEqual(sorted(login, mobileLogin));
        expect(await ids('?q=login')).toEqual(sorted(login, mobileLogin, typo));
        expect(await ids(`?q=login&projectId=${s.ws.projectId}&severity=high`)).toEqual(sorted(login));
        expect(await ids('?status=closed')).toEqual([]);
      });

      it('filters by createdAfter (inclusive), createdBefore (exclusive) and updatedSince', async () => {
        const early = await createIssue({ title: 'early' });
        s.clock.advance(60_000);
        const late = await createIssue({ title: 'late' });
        s.clock.advance(60_000);
        expectJson(
          await s.api('PATCH', `/api/v1/issues/${early.id}`, {
            token: s.tokens.admin,
            headers: { 'If-Match': '"1"' },
            body: { severity: 'low' },
          }),
          200,
        );
        const titles = async (query: string) =>
          ((await listIssues(query)).data as { title: string }[]).map((i) => i.title);
        const at = (ms: number) => encodeURIComponent(iso(startTime + ms));
        expect(await titles(`?createdAfter=${at(60_000)}`)).toEqual(['late']);
        expect(await titles(`?createdBefore=${at(60_000)}`)).toEqual(['early']);
        expect(await titles(`?updatedSince=${at(120_000)}`)).toEqual(['early']);
        expect(await titles(`?createdAfter=${at(0)}&createdBefore=${at(60_001)}`)).toEqual(['late', 'early']);
        expect(late.createdAt).toBe(iso(startTime + 60_000));
        // A bound finer than the stored milliseconds: 'late' (at .000) is before .0001.
        const finer = encodeURIComponent(iso(startTime + 60_000).replace('Z', '1Z'));
        expect(await titles(`?createdAfter=${finer}`)).toEqual([]);
        expect(await titles(`?createdBefore=${finer}`)).toEqual(['late', 'early']);
        expect(await titles(`?updatedSince=${finer}`)).toEqual(['early']);
      });

      it('lists issues created within one millisecond newest first, as they were created', async () => {
        // The fake clock stands still: every createdAt is the same, and the ids decide. Sent at
        // once, the creates run one after another within a millisecond or two.
        await Promise.all(Array.from({ length: 12 }, (_, i) => createIssue({ title: `Same moment ${i}` })));
        const page = await listIssues('?limit=100');
        expect(page.data.map((issue: { key: string }) => issue.key)).toEqual(
          Array.from({ length: 12 }, (_, i) => `APO-${12 - i}`),
        );
      });

      it('pages with nextCursor to the end, newest first, every item once, with a constant total', async () => {
        const created: string[] = [];
        for (let i = 0; i < 7; i++) {
          created.push((await createIssue({ title: `issue ${i}` })).id);
          s.clock.advance(1_000);
        }
        const seen: string[] = [];
        const sizes: number[] = [];
        let cursor: string | null = null;
        do {
          const query: string = `?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
          const page = await listIssues(query);
          expect(page.total).toBe(7);
          sizes.push(page.data.length);
          seen.push(...(page.data as { id: string }[]).map((i) => i.id));
          cursor = page.nextCursor;
        } while (cursor !== null);
        expect(sizes).toEqual([3, 3, 1]);
        expect(seen).toEqual([...created].reverse());
      });

      it('does not shift the pages when issues are created while a client pages', async () => {
        const created: string[] = [];
        for (let i = 0; i < 5; i++) {
          created.push((await createIssue({ title: `issue ${i}` })).id);
          s.clock.advance(1_000);
        }
        const first = await listIssues('?limit=2');
        const late = await createIssue({ title: 'created while paging' });
        const second = await listIssues(`?limit=2&cursor=${encodeURIComponent(first.nextCursor)}`);
        const third = await listIssues(`?limit=2&cursor=${encodeURIComponent(second.nextCursor)}`);
        expect([first.total, second.total, third.total]).toEqual([5, 6, 6]);
        expect(third.nextCursor).toBeNull();
        const seen = [first, second, third].flatMap((p) => (p.data as { id: string }[]).map((i) => i.id));
        expect(seen).toEqual([...created].reverse());
        expect(seen).not.toContain(late.id);
      });

      it('answers an empty list with the read envelope and never shows another tenant', async () => {
        expect(await listIssues()).toEqual({ data: [], nextCursor: null, total: 0 });
        const theirs = expectJson(await s.api('GET', '/api/v1/issues', { token: s.other.adminToken }), 200);
        expect(theirs.total).toBe(1);
      });
    });

    describe('atomicity and signals', () => {
      it('leaves no partial write behind a failed create', async () => {
        await createIssue({ title: 'kept' });
        const signalsBefore = await signals();
        const listBefore = await listIssues();
        for (const body of [
          { projectId: s.other.projectId, title: 'x' },
          { projectId: s.ws.projectId, title: 'x', assigneeId: s.other.adminUserId },
          { projectId: 'prj_doesnotexist', title: 'x' },
        ]) {
          const res = await s.api('POST', '/api/v1/issues', {
            token: s.tokens.admin,
            headers: { 'Idempotency-Key': newKey() },
            body,
          });
          expectProblem(res, 422, 'invalid_reference');
        }
        expect(await signals()).toEqual(signalsBefore);
        expect(await listIssues()).toEqual(listBefore);
        // The failed creates used up no issue number either.
        expect((await createIssue({ title: 'next' })).key).toBe('APO-2');
        expect(await signals(s)).toHaveLength(signalsBefore.length + 1);
      });

      it('writes exactly one signal of the right type for each successful mutation, and none for reads', async () => {
        const base = (await signals()).length;
        const key = newKey();
        const created = await createIssue({ title: 'Signal me' }, { key, token: s.tokens.member.plain });
        // A replay, reads and a failed request write nothing.
        const replay = await s.api('POST', '/api/v1/issues', {
          token: s.tokens.member.plain,
          headers: { 'Idempotency-Key': key },
          body: { projectId: s.ws.projectId, title: 'Signal me' },
        });
        expect(replay.status).toBe(200);
        await s.api('GET', `/api/v1/issues/${created.id}`, { token: s.tokens.admin });
        await s.api('GET', '/api/v1/issues', { token: s.tokens.admin });
        await transition(created.id, 'open');

        const updated = expectJson(
          await s.api('PATCH', `/api/v1/issues/${created.id}`, {
            token: s.tokens.admin,
            headers: { 'If-Match': '"1"' },
            body: { severity: 'high', title: 'Signal me twice' },
          }),
          200,
        );
        const moved = expectJson(await transition(created.id, 'resolved'), 200);

        const events = (await signals()).slice(base);
        expect(events.map((e) => e.type)).toEqual(['issue.created', 'issue.updated', 'issue.status_changed']);
        const sequences = events.map((e) => e.sequence);
        expect([...sequences].sort((a, b) => a - b)).toEqual(sequences);
        expect(new Set(sequences).size).toBe(3);
        const [c, u, t] = events as [SignalEvent, SignalEvent, SignalEvent];
        for (const e of events) {
          expect(e.id).toMatch(uuidPattern);
          expect(e).toMatchObject({
            accountId: s.ws.accountId,
            workspaceId: s.ws.workspaceId,
            resource: { type: 'issue', id: created.id },
            occurredAt: iso(startTime),
          });
        }
        expect(c.actor).toEqual({ userId: s.tokens.member.userId, tokenId: s.tokens.member.id });
        expect(c.data).toEqual({ object: created });
        expect(u.actor).toEqual({ userId: s.ws.adminUserId, tokenId: s.ws.adminTokenId });
        expect(u.data).toEqual({ object: updated, previous: { severity: 'medium', title: 'Signal me' } });
        expect(t.data).toEqual({ object: moved, previous: { status: 'open' } });
      });

      it('carries a transition comment in the status_changed signal', async () => {
        const issue = await createIssue();
        const res = await s.api('POST', `/api/v1/issues/${issue.id}/transition`, {
          token: s.tokens.admin,
          body: { to: 'blocked', comment: 'Waiting for the vendor' },
        });
        const moved = expectJson(res, 200);
        const last = (await signals()).at(-1);
        expect(last?.type).toBe('issue.status_changed');
        expect(last?.data).toEqual({
          object: moved,
          previous: { status: 'open' },
          comment: 'Waiting for the vendor',
          commentId: expect.stringMatching(/^cmt_/),
        });
      });

      it('answers a storage failure with 500 internal_error quoting the request id, leaking nothing', async () => {
        const broken = failingStorage(adapter ? await adapter.create() : memoryStorage());
        const t = await startExtra({ storage: broken.storage });
        broken.failIssueInserts(true);
        const res = await t.api('POST', '/api/v1/issues', {
          token: t.tokens.admin,
          headers: { 'Idempotency-Key': newKey(), 'X-Request-Id': 'trace-500' },
          body: { projectId: t.ws.projectId, title: 'x' },
        });
        const problem = expectProblem(res, 500, 'internal_error');
        expect(res.headers.get('x-request-id')).toBe('trace-500');
        expect(problem.detail).toContain('trace-500');
        expect(res.text).not.toMatch(/SQLITE|secret|tracker\.db|Error:/);
        expect((await signals(t)).filter((e) => e.type === 'issue.created')).toHaveLength(0);
        broken.failIssueInserts(false);
        expect((await createIssue({}, { server: t })).key).toBe('APO-1');
        expect((await signals(t)).filter((e) => e.type === 'issue.created')).toHaveLength(1);
      });

      it('writes no signal for a refused request', async () => {
        const issue = await createIssue();
        const before = await signals();
        await s.api('POST', '/api/v1/issues', {
          token: s.tokens.viewer.plain,
          headers: { 'Idempotency-Key': newKey() },
          body: { projectId: s.ws.projectId, title: 'x' },
        });
        await s.api('PATCH', `/api/v1/issues/${issue.id}`, {
          token: s.tokens.admin,
          body: { severity: 'low' },
        });
        await transition(issue.id, 'open');
        await s.api('PATCH', `/api/v1/issues/${issue.id}`, {
          token: s.tokens.admin,
          headers: { 'If-Match': '"7"' },
          body: { severity: 'low' },
        });
        expect(await signals()).toEqual(before);
      });
    });
  });
}
