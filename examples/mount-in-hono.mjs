// The tracker mounted at /api/v1 inside your own Hono app, served with @hono/node-server.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { createTracker, tenancy } from 'outcome-tracker';
import { honoApp } from 'outcome-tracker/hono';
import { memoryStorage } from 'outcome-tracker/memory';

const tracker = createTracker({ storage: memoryStorage() });
const { token } = await tracker.storage.transaction((tx) =>
  tenancy.initWorkspace(
    { tx, ids: tracker.ids, now: tracker.clock.now() },
    { slug: 'acme', adminEmail: 'ada@example.com' },
  ),
);

const app = new Hono();
app.get('/', (c) => c.text('my app'));
app.route('/api/v1', honoApp(tracker));

const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, async ({ port }) => {
  const base = `http://127.0.0.1:${port}`;
  const home = await fetch(`${base}/`);
  console.log(`GET / -> ${home.status} ${await home.text()}`);

  const created = await fetch(`${base}/api/v1/projects`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'idempotency-key': crypto.randomUUID(),
    },
    body: JSON.stringify({ name: 'Apollo' }),
  });
  console.log(`POST /api/v1/projects -> ${created.status} ${(await created.json()).key}`);

  const list = await fetch(`${base}/api/v1/projects`, { headers: { authorization: `Bearer ${token}` } });
  console.log(`GET /api/v1/projects -> ${list.status} total=${(await list.json()).total}`);

  server.close();
  await tracker.close();
});
