import { randomUUID } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corsExposedHeaders } from '../../src/core/index.js';
import { hosts } from '../http/harness.js';
import { type EdgeServer, rawRequest, startEdgeServer } from './support.js';

const appOrigin = 'http://app.example.test:8080';

describe.each(hosts)('CORS and compression through the %s host', (host) => {
  let on: EdgeServer;
  let off: EdgeServer;
  beforeAll(async () => {
    on = await startEdgeServer(host, { cors: { origins: [appOrigin] } });
    off = await startEdgeServer(host);
  });
  afterAll(async () => {
    await on.close();
    await off.close();
  });
  const auth = (server: EdgeServer) => ({ authorization: `Bearer ${server.ws.adminToken}` });

  it('answers a preflight from an allowed origin with 204, the methods and the request headers', async () => {
    const res = await rawRequest(`${on.url}/api/v1/issues`, {
      method: 'OPTIONS',
      headers: {
        origin: appOrigin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type, idempotency-key',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe(appOrigin);
    const methods = String(res.headers['access-control-allow-methods']).split(', ');
    expect(methods).toEqual(expect.arrayContaining(['GET', 'POST', 'PATCH', 'DELETE']));
    const allowed = String(res.headers['access-control-allow-headers']).split(', ');
    expect(allowed).toEqual(
      expect.arrayContaining([
        'Authorization',
        'Content-Type',
        'Idempotency-Key',
        'If-Match',
        'If-None-Match',
        'Last-Event-ID',
      ]),
    );
    expect(String(res.headers.vary)).toContain('Origin');
  });

  it('lets an allowed origin read the headers it needs, and says the answer varies by Origin', async () => {
    const res = await rawRequest(`${on.url}/api/v1/projects`, {
      headers: { ...auth(on), origin: appOrigin },
    });
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe(appOrigin);
    expect(String(res.headers['access-control-expose-headers']).split(', ')).toEqual([...corsExposedHeaders]);
    expect(String(res.headers.vary)).toContain('Origin');
  });

  it('gives another origin no CORS headers, neither on a preflight nor on a request', async () => {
    const preflight = await rawRequest(`${on.url}/api/v1/issues`, {
      method: 'OPTIONS',
      headers: { origin: 'http://evil.example.test', 'access-control-request-method': 'POST' },
    });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    const res = await rawRequest(`${on.url}/api/v1/projects`, {
      headers: { ...auth(on), origin: 'http://evil.example.test' },
    });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(String(res.headers.vary)).toContain('Origin');
  });

  it('is off by default', async () => {
    const preflight = await rawRequest(`${off.url}/api/v1/issues`, {
      method: 'OPTIONS',
      headers: { origin: appOrigin, 'access-control-request-method': 'POST' },
    });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    const res = await rawRequest(`${off.url}/api/v1/projects`, {
      headers: { ...auth(off), origin: appOrigin },
    });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('compresses JSON with brotli or gzip, as Accept-Encoding and its q-values choose', async () => {
    // Enough issues for a list well over the size below which nothing is compressed.
    for (let i = 0; i < 12; i++) {
      await on.tracker.run({ workspaceSlug: 'acme' }, async (ctx) => {
        const { issues } = await import('../../src/core/index.js');
        await issues.create(ctx, {
          projectId: on.ws.projectId,
          title: `Issue number ${i} with a longer title`,
        });
      });
    }
    const plain = await rawRequest(`${on.url}/api/v1/issues`, { headers: auth(on) });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(String(plain.headers.vary)).toContain('Accept-Encoding');
    const expected = JSON.parse(plain.body.toString()).data.map((i: { id: string }) => i.id);
    expect(plain.body.length).toBeGreaterThan(1024);

    const cases: [string, 'br' | 'gzip' | undefined][] = [
      ['gzip, deflate, br', 'br'],
      ['br;q=0.5, gzip;q=1', 'gzip'],
      ['gzip;q=0.8, *;q=0.9', 'br'],
      ['br;q=0, gzip', 'gzip'],
      ['identity', undefined],
      ['*;q=0', undefined],
    ];
    for (const [accept, coding] of cases) {
      const res = await rawRequest(`${on.url}/api/v1/issues`, {
        headers: { ...auth(on), 'accept-encoding': accept },
      });
      expect(res.headers['content-encoding'], accept).toBe(coding);
      const text =
        coding === 'br'
          ? brotliDecompressSync(res.body)
          : coding === 'gzip'
            ? gunzipSync(res.body)
            : res.body;
      expect(JSON.parse(text.toString()).data.map((i: { id: string }) => i.id)).toEqual(expected);
    }
  });

  it('leaves tiny bodies and event streams uncompressed', async () => {
    const health = await rawRequest(`${on.url}/healthz`, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(health.headers['content-encoding']).toBeUndefined();
    const controller = new AbortController();
    const stream = await fetch(`${on.url}/api/v1/signals`, {
      headers: { ...auth(on), accept: 'text/event-stream', 'accept-encoding': 'br, gzip' },
      signal: controller.signal,
    });
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(stream.headers.get('content-encoding')).toBeNull();
    controller.abort();
  });

  it('compresses the OpenAPI document and the docs pages, each with an ETag', async () => {
    const doc = await rawRequest(`${on.url}/api/v1/openapi.json`, { headers: { 'accept-encoding': 'br' } });
    expect(doc.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(doc.body).toString()).openapi).toMatch(/^3\.1/);
    const etag = String(doc.headers.etag);
    const again = await rawRequest(`${on.url}/api/v1/openapi.json`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);

    const page = await rawRequest(`${on.url}/docs`, { headers: { 'accept-encoding': 'gzip' } });
    expect(page.status).toBe(200);
    expect(page.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(page.body).toString()).toContain('<h2>Issues</h2>');
    expect(page.headers.etag).toMatch(/^"[\w-]+"$/);
    const guide = await rawRequest(`${on.url}/docs/guide`);
    expect(guide.status).toBe(200);
    expect(guide.body.toString()).toContain('<h2>Authentication</h2>');
  });

  it('names every created resource in Location, on the 201 and on its replay', async () => {
    const key = randomUUID();
    const create = () =>
      rawRequest(`${on.url}/api/v1/issues`, {
        method: 'POST',
        headers: { ...auth(on), 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify({ projectId: on.ws.projectId, title: 'Located' }),
      });
    const first = await create();
    expect(first.status).toBe(201);
    const id = JSON.parse(first.body.toString()).id;
    expect(first.headers.location).toBe(`/api/v1/issues/${id}`);
    const replay = await create();
    expect(replay.headers.location).toBe(`/api/v1/issues/${id}`);
    const project = await rawRequest(`${on.url}/api/v1/projects`, {
      method: 'POST',
      headers: { ...auth(on), 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: JSON.stringify({ name: 'Gemini' }),
    });
    expect(project.headers.location).toBe(`/api/v1/projects/${JSON.parse(project.body.toString()).id}`);
  });
});
