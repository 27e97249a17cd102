import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryStorage } from '../../src/adapters/memory/index.js';
import { sqliteStorage } from '../../src/adapters/sqlite/index.js';
import { adminArea } from '../../src/admin/index.js';
import { createTracker } from '../../src/core/index.js';
import { honoApp } from '../../src/http/hono.js';
import { freePort, tempDir } from '../cli/process.js';
import { seedWorkspace } from '../http/harness.js';
import { exampleSkipReason } from '../support/examples.js';
import { nextSkipReason, startNextApp } from './next-app.js';

// Express and Fastify are the examples' own dependencies (examples/<name>/package.json), which
// .ci/run installs: the recipes are examples/express/app.mjs and examples/fastify/app.mjs.
const expressSkipReason = exampleSkipReason('express', ['express', 'outcome-tracker']);
const fastifySkipReason = exampleSkipReason('fastify', ['fastify', 'outcome-tracker']);
const skipped = (reason: string | null) => (reason ? ` (skipped: ${reason})` : '');
const example = (name: string) => import(resolve(`examples/${name}/app.mjs`));

/**
 * The README's mounting recipes, each run against the real framework: the tracker mounted under
 * /tracker next to the app's own routes, with a JSON create, a read, the reference page and a probe.
 */
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function mountedTracker() {
  const storage = memoryStorage();
  const tracker = createTracker({ storage, basePath: '/tracker/api/v1' });
  const ws = await seedWorkspace(tracker, storage, tracker.ids, Date.now(), 'acme', 'admin@acme.test');
  closers.push(() => tracker.close());
  return { tracker, token: ws.adminToken, projectId: ws.projectId };
}

async function exercise(origin: string, token: string, projectId: string) {
  const auth = { authorization: `Bearer ${token}` };
  const created = await fetch(`${origin}/tracker/api/v1/issues`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
    body: JSON.stringify({ projectId, title: 'Mounted by a framework' }),
  });
  expect(created.status).toBe(201);
  const location = created.headers.get('location') ?? '';
  expect(location).toMatch(/^\/tracker\/api\/v1\/issues\/iss_/);
  const read = await fetch(`${origin}${location}`, { headers: auth });
  expect(((await read.json()) as { title: string }).title).toBe('Mounted by a framework');
  const docs = await fetch(`${origin}/tracker/docs`);
  expect(await docs.text()).toContain('href="/tracker/api/v1/openapi.json"');
  expect((await fetch(`${origin}/tracker/healthz`)).status).toBe(200);
  expect(await (await fetch(`${origin}/hello`)).text()).toBe('the app itself');
}

const originOf = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

describe('mounting recipes', () => {
  it.skipIf(expressSkipReason)(
    `Express: app.use under a prefix, after express.json()${skipped(expressSkipReason)}`,
    async () => {
      const { tracker, token, projectId } = await mountedTracker();
      const app = (await example('express')).expressApp(tracker);
      const server: Server = app.listen(0, '127.0.0.1');
      await new Promise((listening) => server.once('listening', listening));
      closers.push(() => new Promise((done) => server.close(() => done())));
      await exercise(originOf(server), token, projectId);
    },
  );

  it.skipIf(fastifySkipReason)(
    `Fastify: a scope that leaves the body to the tracker${skipped(fastifySkipReason)}`,
    async () => {
      const { tracker, token, projectId } = await mountedTracker();
      const app = await (await example('fastify')).fastifyApp(tracker);
      await app.listen({ port: 0, host: '127.0.0.1' });
      closers.push(() => app.close());
      await exercise(originOf(app.server), token, projectId);
    },
  );

  it('Hono: a sub-app under a prefix', async () => {
    const { tracker, token, projectId } = await mountedTracker();
    // --- recipe ---
    const app = new Hono();
    app.get('/hello', (c) => c.text('the app itself'));
    app.route('/tracker', honoApp(tracker));
    // --- end ---
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }) as Server;
    await new Promise((listening) => server.once('listening', listening));
    closers.push(() => new Promise((done) => server.close(() => done())));
    await exercise(originOf(server), token, projectId);
  });

  it('the admin pages: an extension the app mounts, or does not', async () => {
    const storage = memoryStorage();
    // --- recipe ---
    const tracker = createTracker({ storage, extensions: [adminArea()] });
    // --- end ---
    closers.push(() => tracker.close());
    const bare = createTracker({ storage: memoryStorage() });
    closers.push(() => bare.close());
    const signIn = { method: 'GET', path: '/sign-in', headers: { accept: 'text/html' } };
    const mounted = await tracker.handle(signIn);
    expect(mounted.status).toBe(200);
    expect(mounted.headers['Content-Type'] ?? mounted.headers['content-type']).toMatch(/^text\/html/);
    expect((await bare.handle(signIn)).status).toBe(404);
  });

  it('any fetch runtime: tracker.fetch(request)', async () => {
    const { tracker, token, projectId } = await mountedTracker();
    // --- recipe ---
    const app = (request: Request): Promise<Response> =>
      new URL(request.url).pathname === '/hello'
        ? Promise.resolve(new Response('the app itself'))
        : tracker.fetch(request);
    // --- end ---
    const server = serve({ fetch: app, port: 0, hostname: '127.0.0.1' }) as Server;
    await new Promise((listening) => server.once('listening', listening));
    closers.push(() => new Promise((done) => server.close(() => done())));
    await exercise(originOf(server), token, projectId);
  });

  // The app is examples/next: its route handler and its config are the README's recipe.
  it.skipIf(nextSkipReason)(
    `Next.js: a catch-all route handler over tracker.fetch, under next dev${nextSkipReason ? ` (skipped: ${nextSkipReason})` : ''}`,
    async () => {
      const dir = tempDir();
      closers.push(async () => rmSync(dir, { recursive: true, force: true }));
      const db = join(dir, 'tracker.db');
      const storage = sqliteStorage({ filename: db });
      const seeder = createTracker({ storage });
      const ws = await seedWorkspace(seeder, storage, seeder.ids, Date.now(), 'acme', 'admin@acme.test');
      await seeder.close();
      const app = await startNextApp(await freePort(), { TRACKER_DB: db });
      closers.unshift(app.close); // stopped before its database folder is removed
      try {
        await exercise(app.origin, ws.adminToken, ws.projectId);
      } catch (error) {
        throw new Error(`${(error as Error).message}\nnext dev printed:\n${app.output()}`);
      }
    },
    // About 13 s of CPU (next dev starting and compiling the route once); the bound leaves room for
    // a machine busy with other test files, where it has taken up to 46 s.
    90_000,
  );

  it.skipIf(expressSkipReason)(
    `answers a body a parser read into something it cannot restore with a 500 that says so${skipped(expressSkipReason)}`,
    async () => {
      const { tracker, token } = await mountedTracker();
      const app = (await example('express')).urlencodedApp(tracker);
      const server: Server = app.listen(0, '127.0.0.1');
      await new Promise((listening) => server.once('listening', listening));
      closers.push(() => new Promise((done) => server.close(() => done())));
      const res = await fetch(`${originOf(server)}/tracker/api/v1/projects`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/x-www-form-urlencoded',
          'idempotency-key': randomUUID(),
        },
        body: 'name[first]=nested',
      });
      expect(res.status).toBe(500);
      expect(((await res.json()) as { detail: string }).detail).toContain('raw request body');
    },
  );
});
