import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, ConnectionError, inProcessFetch } from '../../src/client/index.js';
import { type ClientFixture, clientFixture, recordingFetch, wallClock } from './harness.js';
import { type TcpProxy, tcpProxy } from './tcp-proxy.js';

describe.each(['node', 'hono'] as const)('retries through a real %s server', (host) => {
  let f: ClientFixture;
  let proxy: TcpProxy;
  beforeAll(async () => {
    f = await clientFixture(host);
    proxy = await tcpProxy(Number(new URL(f.url ?? '').port));
  });
  afterAll(async () => {
    await proxy.close();
    await f.close();
  });

  it('a create whose answer was lost is retried with the same key and makes one issue', async () => {
    const recorder = recordingFetch();
    const client = f.client({ baseUrl: proxy.url, fetch: recorder.fetch });
    proxy.dropNextAnswers(1);
    const title = `Lost answer ${host}`;
    const issue = await client.issues.create({ projectId: f.ws.projectId, title });

    expect(recorder.sent.map((r) => r.method)).toEqual(['POST', 'POST']);
    const [first, second] = recorder.sent;
    expect(first?.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(second?.idempotencyKey).toBe(first?.idempotencyKey);
    expect(recorder.statuses).toEqual([null, 200]);

    const direct = f.client();
    const matching = await direct.issues.list({ q: title }).toArray();
    expect(matching.map((i) => i.id)).toEqual([issue.id]);
  });

  it('without retries the lost answer is a ConnectionError, though the server made the issue', async () => {
    const client = f.client({ baseUrl: proxy.url, maxRetries: 0 });
    proxy.dropNextAnswers(1);
    const title = `Lost for good ${host}`;
    const failure = await client.issues
      .create({ projectId: f.ws.projectId, title }, { idempotencyKey: crypto.randomUUID() })
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ConnectionError);
    expect(failure).toMatchObject({ attempts: 1, timedOut: false });
    expect((await f.client().issues.list({ q: title }).page()).total).toBe(1);
  });

  it('a caller-given key is sent as given, and a repeat of the call replays the first answer', async () => {
    const recorder = recordingFetch();
    const client = f.client({ fetch: recorder.fetch });
    const idempotencyKey = crypto.randomUUID();
    const input = { projectId: f.ws.projectId, title: `Keyed ${host}` };
    const first = await client.issues.create(input, { idempotencyKey });
    const again = await client.issues.create(input, { idempotencyKey });
    expect(again).toEqual(first);
    expect(recorder.sent.map((r) => r.idempotencyKey)).toEqual([idempotencyKey, idempotencyKey]);
    expect(recorder.statuses).toEqual([201, 200]);
  });

  it('a PATCH whose answer was lost is not sent again', async () => {
    const client = f.client();
    const issue = await client.issues.create({ projectId: f.ws.projectId, title: `Patched once ${host}` });
    const recorder = recordingFetch();
    const viaProxy = f.client({ baseUrl: proxy.url, fetch: recorder.fetch, maxRetries: 3 });
    proxy.dropNextAnswers(1);
    const failure = await viaProxy.issues.update(issue, { severity: 'low' }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ConnectionError);
    expect(recorder.sent.map((r) => r.method)).toEqual(['PATCH']);
    // It did go through: a blind retry would have answered 409 for a change that was made.
    expect((await client.issues.get(issue.id)).severity).toBe('low');
  });

  it('a GET whose answer was lost is retried', async () => {
    const recorder = recordingFetch();
    const client = f.client({ baseUrl: proxy.url, fetch: recorder.fetch });
    proxy.dropNextAnswers(1);
    const page = await client.projects.list().page();
    expect(page.total).toBeGreaterThan(0);
    expect(recorder.statuses).toEqual([null, 200]);
  });

  it('an attempt that outlives timeoutMs is aborted and retried', async () => {
    let calls = 0;
    const stalling = (request: Request) => {
      calls++;
      if (calls > 1) return fetch(request);
      // The first attempt hangs until the client gives up on it.
      return new Promise<Response>((_, reject) => {
        request.signal.addEventListener('abort', () => reject(request.signal.reason));
      });
    };
    const client = f.client({ fetch: stalling, timeoutMs: 200 });
    const project = await client.projects.get(f.ws.projectId);
    expect({ id: project.id, calls }).toEqual({ id: f.ws.projectId, calls: 2 });

    const stuck = f.client({
      fetch: (request) =>
        new Promise((_, reject) =>
          request.signal.addEventListener('abort', () => reject(request.signal.reason)),
        ),
      timeoutMs: 50,
      maxRetries: 1,
    });
    await expect(stuck.projects.get(f.ws.projectId)).rejects.toMatchObject({
      name: 'ConnectionError',
      attempts: 2,
      timedOut: true,
    });
  });
});

describe('429 and 503 answers', () => {
  let f: ClientFixture;
  afterEach(async () => {
    await f.close();
  });

  it('a 429 is waited out for as long as Retry-After says, and the call then succeeds', async () => {
    // A real clock, so the server's limiter refills while the client waits.
    f = await clientFixture('node', { clock: wallClock(), rateLimit: { limit: 2, windowMs: 2_000 } });
    const recorder = recordingFetch();
    const client = f.client({ fetch: recorder.fetch });
    const issue = await client.issues.create({ projectId: f.ws.projectId, title: 'Rate limited' });
    await client.issues.get(issue.id);
    const third = await client.issues.update(issue, { severity: 'low' });
    expect(third.severity).toBe('low');
    expect(recorder.statuses.slice(0, 3)).toEqual([201, 200, 429]);
    expect(recorder.statuses.at(-1)).toBe(200);
    expect(recorder.sent.filter((r) => r.method === 'PATCH').length).toBe(recorder.statuses.length - 2);
    expect(recorder.waitedMs.every((ms) => ms >= 1000)).toBe(true);
  });

  it('with no retries left a 429 is an ApiError saying how long to wait', async () => {
    f = await clientFixture('in-process', { rateLimit: { limit: 1, windowMs: 60_000 } });
    const client = f.client({ maxRetries: 0 });
    await client.projects.list().page();
    const failure = await client.projects
      .list()
      .page()
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ status: 429, code: 'rate_limited', retryAfterSeconds: 60 });
  });

  it('a Retry-After longer than maxRetryAfterMs is not waited for', async () => {
    f = await clientFixture('in-process', { rateLimit: { limit: 1, windowMs: 60_000 } });
    const recorder = recordingFetch(createClientFetch(f));
    const client = f.client({ fetch: recorder.fetch, maxRetryAfterMs: 5_000 });
    await client.projects.list().page();
    await expect(client.projects.list().page()).rejects.toMatchObject({ code: 'rate_limited' });
    expect(recorder.statuses).toEqual([200, 429]);
  });

  it('a 503 is retried for a create, with the same key, and not for a PATCH', async () => {
    f = await clientFixture('in-process');
    let failNext = 1;
    const unavailable = (request: Request, inner: (r: Request) => Promise<Response>) => {
      if (failNext-- > 0) {
        const problem = {
          type: 'about:blank',
          title: 'Unavailable',
          status: 503,
          detail: 'busy',
          error: 'internal_error',
        };
        return Promise.resolve(
          new Response(JSON.stringify(problem), {
            status: 503,
            headers: { 'content-type': 'application/problem+json', 'retry-after': '0' },
          }),
        );
      }
      return inner(request);
    };
    const recorder = recordingFetch((r) => unavailable(r, createClientFetch(f)));
    const client = f.client({ fetch: recorder.fetch });
    const issue = await client.issues.create({ projectId: f.ws.projectId, title: 'After a 503' });
    expect(recorder.statuses).toEqual([503, 201]);
    expect(recorder.sent[1]?.idempotencyKey).toBe(recorder.sent[0]?.idempotencyKey);

    failNext = 1;
    await expect(client.issues.update(issue, { severity: 'low' })).rejects.toMatchObject({ status: 503 });
    expect(recorder.sent.at(-1)?.method).toBe('PATCH');
    expect(recorder.statuses.slice(2)).toEqual([503]);
  });
});

/** The in-process fetch of a fixture's tracker (no server). */
const createClientFetch = (f: ClientFixture) => inProcessFetch(f.tracker);
