import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryStorage } from '../../src/adapters/memory/index.js';
import { createMount } from '../../src/core/edge/mount.js';
import { createTracker } from '../../src/core/index.js';
import { hosts, seedWorkspace } from '../http/harness.js';
import { failingStorage } from '../support/failing-storage.js';
import { type EdgeServer, rawRequest, startEdgeServer } from './support.js';

describe('a mount maps client paths to the core and back', () => {
  it('puts the pages beside the API when the base path ends in /api/v1, at the root otherwise', () => {
    const nested = createMount('/tracker/api/v1/');
    expect(nested.inbound('/tracker/api/v1/issues?x=1')).toBe('/api/v1/issues?x=1');
    expect(nested.inbound('/tracker/docs')).toBe('/docs');
    expect(nested.inbound('/api/v1/issues')).toBeNull();
    expect(nested.inbound('/docs')).toBeNull();
    expect(nested.outbound('/api/v1/issues/iss_1')).toBe('/tracker/api/v1/issues/iss_1');
    expect(nested.outbound('/sign-in?next=%2Fx')).toBe('/tracker/sign-in?next=%2Fx');
    const short = createMount('/v2');
    expect(short.inbound('/v2/projects')).toBe('/api/v1/projects');
    expect(short.inbound('/docs')).toBe('/docs');
    expect(short.inbound('/api/v1/projects')).toBeNull();
    expect(() => createMount('tracker')).toThrow(/basePath/);
    expect(() => createMount('/a b')).toThrow(/basePath/);
  });
  it('moves every cookie path under the mount, the root one and deeper ones alike', () => {
    const { rewrite } = createMount('/tracker/api/v1');
    const cookie = (value: string) =>
      rewrite({ status: 200, headers: { 'Set-Cookie': value }, body: '' }).headers['Set-Cookie'];
    expect(cookie('sid=1; Path=/; HttpOnly')).toBe('sid=1; Path=/tracker; HttpOnly');
    expect(cookie('sid=1; HttpOnly; Path=/acme/admin')).toBe('sid=1; HttpOnly; Path=/tracker/acme/admin');
    expect(cookie('sid=; Path=/; Max-Age=0')).toBe('sid=; Path=/tracker; Max-Age=0');
  });
});

describe.each(hosts)('a tracker with basePath /tracker/api/v1 through the %s host', (host) => {
  let server: EdgeServer;
  beforeAll(async () => {
    server = await startEdgeServer(host, { basePath: '/tracker/api/v1' });
  });
  afterAll(() => server.close());
  const auth = () => ({ authorization: `Bearer ${server.ws.adminToken}` });

  it('serves the API under the prefix and nothing at the default one', async () => {
    const list = await rawRequest(`${server.url}/tracker/api/v1/projects`, { headers: auth() });
    expect(list.status).toBe(200);
    expect(JSON.parse(list.body.toString()).data[0].key).toBe('APO');
    const unmounted = await rawRequest(`${server.url}/api/v1/projects`, { headers: auth() });
    expect(unmounted.status).toBe(404);
    expect(unmounted.headers['content-type']).toMatch(/^application\/problem\+json/);
  });

  it('answers Location under the prefix', async () => {
    const created = await rawRequest(`${server.url}/tracker/api/v1/issues`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: JSON.stringify({ projectId: server.ws.projectId, title: 'Mounted' }),
    });
    expect(created.status).toBe(201);
    const location = String(created.headers.location);
    expect(location).toBe(`/tracker/api/v1/issues/${JSON.parse(created.body.toString()).id}`);
    expect((await rawRequest(`${server.url}${location}`, { headers: auth() })).status).toBe(200);
  });

  it('serves the OpenAPI document with the paths where they are served', async () => {
    const doc = JSON.parse((await rawRequest(`${server.url}/tracker/api/v1/openapi.json`)).body.toString());
    expect(Object.keys(doc.paths)).toContain('/tracker/api/v1/issues/{id}');
    expect(Object.keys(doc.paths)).toContain('/tracker/healthz');
    expect(Object.keys(doc.paths).some((p) => p.startsWith('/api/v1'))).toBe(false);
  });

  it('serves the reference page, the guide, the probes and the admin pages under the prefix', async () => {
    const page = (await rawRequest(`${server.url}/tracker/docs`)).body.toString();
    expect(page).toContain('href="/tracker/api/v1/openapi.json"');
    // The operations it shows are at their served paths.
    expect(page).toContain('<code class="path">/tracker/api/v1/issues/{id}</code>');
    expect(page).not.toContain('<code class="path">/api/v1/');
    expect(page).toContain('href="/tracker/docs/guide"');
    expect((await rawRequest(`${server.url}/tracker/docs/guide`)).status).toBe(200);
    expect((await rawRequest(`${server.url}/tracker/healthz`)).status).toBe(200);
    expect((await rawRequest(`${server.url}/tracker/readyz`)).status).toBe(200);

    const signIn = await rawRequest(`${server.url}/tracker/sign-in`);
    expect(signIn.status).toBe(200);
    expect(signIn.body.toString()).toContain('action="/tracker/sign-in"');
    expect(signIn.body.toString()).not.toMatch(/(href|src|action)="\/(?!tracker\/)/);
    const admin = await rawRequest(`${server.url}/tracker/acme/admin/api-tokens`);
    expect(admin.status).toBe(303);
    expect(admin.headers.location).toBe('/tracker/sign-in?next=%2Facme%2Fadmin%2Fapi-tokens');
  });
});

describe('probes and the client address', () => {
  it('keeps /healthz and /readyz out of the rate limit, and /readyz answers 503 when storage fails', async () => {
    const broken = failingStorage(memoryStorage());
    let failing = false;
    const storage = {
      ...broken.storage,
      transaction: ((fn, options) => {
        if (failing) return Promise.reject(new Error('connection refused'));
        return broken.storage.transaction(fn, options);
      }) as typeof broken.storage.transaction,
    };
    const tracker = createTracker({ storage, rateLimit: { limit: 2, windowMs: 60_000 }, onError: () => {} });
    for (let i = 0; i < 5; i++) {
      expect((await tracker.handle({ method: 'GET', path: '/healthz', headers: {} })).status).toBe(200);
      expect((await tracker.handle({ method: 'GET', path: '/readyz', headers: {} })).status).toBe(200);
    }
    const statuses = [];
    for (let i = 0; i < 3; i++) {
      statuses.push(
        (await tracker.handle({ method: 'GET', path: '/api/v1/openapi.json', headers: {} })).status,
      );
    }
    expect(statuses).toEqual([200, 200, 429]);
    failing = true;
    const unready = await tracker.handle({ method: 'GET', path: '/readyz', headers: {} });
    expect(unready.status).toBe(503);
    expect(JSON.parse(String(unready.body)).error).toBe('service_unavailable');
    expect((await tracker.handle({ method: 'GET', path: '/healthz', headers: {} })).status).toBe(200);
    await tracker.close();
  });

  it('keys the address limit on X-Forwarded-For only when told to trust the proxy', async () => {
    const statusesFor = async (trustProxy: boolean) => {
      const tracker = createTracker({ storage: memoryStorage(), rateLimit: { limit: 1 }, trustProxy });
      const statuses: number[] = [];
      for (const client of ['203.0.113.1', '203.0.113.2', '203.0.113.3']) {
        const answer = await tracker.handle({
          method: 'GET',
          path: '/api/v1/openapi.json',
          headers: { 'x-forwarded-for': `198.51.100.7, ${client}` },
          clientAddress: '10.0.0.1',
        });
        statuses.push(answer.status);
      }
      await tracker.close();
      return statuses;
    };
    expect(await statusesFor(true)).toEqual([200, 200, 200]);
    expect(await statusesFor(false)).toEqual([200, 429, 429]);
  });
});

describe('tracker.fetch', () => {
  it('answers a WHATWG Request with a Response, as any fetch runtime would call it', async () => {
    const storage = memoryStorage();
    const tracker = createTracker({ storage, basePath: '/edge/api/v1' });
    const ws = await seedWorkspace(tracker, storage, tracker.ids, Date.now(), 'acme', 'admin@acme.test');
    const created = await tracker.fetch(
      new Request('https://tracker.example/edge/api/v1/issues', {
        method: 'POST',
        headers: {
          authorization: `Bearer ${ws.adminToken}`,
          'content-type': 'application/json',
          'idempotency-key': randomUUID(),
        },
        body: JSON.stringify({ projectId: ws.projectId, title: 'From a fetch runtime' }),
      }),
    );
    expect(created.status).toBe(201);
    const issue = (await created.json()) as { id: string; key: string };
    expect(created.headers.get('location')).toBe(`/edge/api/v1/issues/${issue.id}`);
    const read = await tracker.fetch(
      new Request(`https://tracker.example/edge/api/v1/issues/${issue.key}`, {
        headers: { authorization: `Bearer ${ws.adminToken}` },
      }),
    );
    expect(((await read.json()) as { title: string }).title).toBe('From a fetch runtime');
    await tracker.close();
  });
});
