import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maxJsonDepth } from '../../src/core/pipeline/body.js';
import { type ApiResponse, hosts, startServer, type TestServer } from '../http/harness.js';

const nested = (depth: number, inner = '0') => '['.repeat(depth) + inner + ']'.repeat(depth);

async function problem(res: ApiResponse) {
  expect(res.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
  expect(res.headers.get('x-request-id')).toBeTruthy();
  expect(res.headers.get('x-ratelimit-limit')).toBeTruthy();
  return res.json;
}

describe.each(hosts)('hostile input through the %s host', (host) => {
  let s: TestServer;
  let issueId: string;
  beforeAll(async () => {
    s = await startServer(host, { rateLimit: { limit: 100_000 } });
    for (const title of ['one', 'two']) {
      const res = await s.api('POST', '/api/v1/issues', {
        token: s.tokens.admin,
        body: { projectId: s.ws.projectId, title },
        headers: { 'idempotency-key': crypto.randomUUID() },
      });
      expect(res.status).toBe(201);
      issueId = res.json.id;
    }
  });
  afterAll(() => s.close());

  const post = (path: string, rawBody: string) =>
    s.api('POST', path, {
      token: s.tokens.admin,
      rawBody,
      headers: { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
    });

  describe('deeply nested JSON', () => {
    it.each([
      ['a create', '/api/v1/issues'],
      ['a transition', 'TRANSITION'],
      ['a webhook create', '/api/v1/webhooks'],
    ])('answers %s nested 20,000 levels deep with 400 before anything walks it', async (_, path) => {
      const target = path === 'TRANSITION' ? `/api/v1/issues/${issueId}/transition` : path;
      for (const body of [nested(20_000), `{"title":${nested(20_000)}}`, '{"a":'.repeat(20_000)]) {
        const res = await post(target, body);
        expect(res.status).toBe(400);
        const json = await problem(res);
        expect(json.error).toBe('validation_failed');
        expect(json.detail).toContain(`deeper than ${maxJsonDepth} levels`);
      }
    });

    it('judges nesting by structure, not by brackets inside strings', async () => {
      const res = await post(
        '/api/v1/issues',
        JSON.stringify({ projectId: s.ws.projectId, title: '[{'.repeat(200) }),
      );
      expect(res.status).toBe(201);
      // Just within the bound: no longer refused for its depth, only for what it is.
      const deep = await post('/api/v1/issues', `{"title":${nested(maxJsonDepth - 1)}}`);
      expect(deep.status).toBe(400);
      expect((await problem(deep)).detail).not.toContain('deeper than');
    });

    it('refuses a body of more values than any request needs', async () => {
      const many = `[${Array(150_000).fill('0').join(',')}]`;
      const res = await post('/api/v1/issues', many);
      expect(res.status).toBe(400);
      expect((await problem(res)).detail).toContain('more than 100000 values');
    });
  });

  describe('integer query parameters', () => {
    it.each(['1e2', '0x10', ' 5', '+5', '5.0', '-1', '', '٣', '1_0'])(
      'answers limit=%j with validation_failed',
      async (limit) => {
        const res = await s.api('GET', `/api/v1/issues?limit=${encodeURIComponent(limit)}`, {
          token: s.tokens.admin,
        });
        expect(res.status).toBe(400);
        const json = await problem(res);
        expect(json.error).toBe('validation_failed');
        expect(json.issues[0]).toMatchObject({ in: 'query', path: 'limit' });
      },
    );

    it('accepts plain decimal digits, on lists and on signals', async () => {
      expect(
        (await s.api('GET', '/api/v1/issues?limit=1', { token: s.tokens.admin })).json.data,
      ).toHaveLength(1);
      expect((await s.api('GET', '/api/v1/signals?after=0&limit=2', { token: s.tokens.admin })).status).toBe(
        200,
      );
      expect((await s.api('GET', '/api/v1/signals?after=1e1', { token: s.tokens.admin })).status).toBe(400);
    });
  });

  describe('percent-encoded paths', () => {
    it('decodes path segments: /issues/%41PO-2 is APO-2', async () => {
      const res = await s.api('GET', '/api/v1/issues/%41PO-2', { token: s.tokens.admin });
      expect(res.status).toBe(200);
      expect(res.json.key).toBe('APO-2');
      const byId = await s.api('GET', `/api/v1/issues/${encodeURIComponent(issueId).replace('_', '%5F')}`, {
        token: s.tokens.admin,
      });
      expect(byId.json.id).toBe(issueId);
    });

    it.each(['%E0%A4%A', '%zz', '%', '%C0%AF', '%ED%A0%80'])(
      'answers a malformed escape (%s) with 400 or 404, never 500',
      async (segment) => {
        const res = await s.api('GET', `/api/v1/issues/${segment}`, { token: s.tokens.admin });
        expect([400, 404]).toContain(res.status);
        await problem(res);
      },
    );
  });

  describe('HEAD and OPTIONS', () => {
    it('lists HEAD in Allow wherever GET is listed', async () => {
      const res = await s.api('DELETE', '/api/v1/issues', { token: s.tokens.admin });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('GET, HEAD, POST');
      const action = await s.api('GET', `/api/v1/issues/${issueId}/transition`, { token: s.tokens.admin });
      expect(action.headers.get('allow')).toBe('POST');
    });

    it('answers HEAD as GET without a body', async () => {
      const get = await s.api('GET', `/api/v1/issues/${issueId}`, { token: s.tokens.admin });
      const head = await s.api('HEAD', `/api/v1/issues/${issueId}`, { token: s.tokens.admin });
      expect(head.status).toBe(200);
      expect(head.text).toBe('');
      expect(head.headers.get('etag')).toBe(get.headers.get('etag'));
    });

    it('answers OPTIONS on a known path with 204 and Allow, without a token', async () => {
      for (const [path, allow] of [
        ['/api/v1/issues', 'GET, HEAD, POST'],
        [`/api/v1/issues/${issueId}`, 'GET, HEAD, PATCH'],
        [`/api/v1/issues/${issueId}/transition`, 'POST'],
      ] as const) {
        const res = await s.api('OPTIONS', path);
        expect(res.status).toBe(204);
        expect(res.headers.get('allow')).toBe(allow);
        expect(res.headers.get('x-ratelimit-remaining')).toBeTruthy();
        expect(res.text).toBe('');
      }
      const unknown = await s.api('OPTIONS', '/api/v1/nothing-here');
      expect(unknown.status).toBe(404);
      await problem(unknown);
    });
  });
});
