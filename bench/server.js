// A server for the HTTP benchmark, run in its own process so the load generator does not
// share its event loop. Variant "raw": a bare node:http server answering fixed JSON (the
// baseline); "tracker": the Node host over SQLite. Prints "ready <port> <json>" when listening.
import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sqliteStorage } from '../dist/adapters/sqlite/index.js';
import { createTracker, projects, tenancy } from '../dist/core/index.js';
import { nodeHandler } from '../dist/http/node.js';

const variant = process.argv[2];

if (variant === 'raw') {
  const payload = JSON.stringify({ id: 'iss_0', title: 'Baseline', status: 'open', version: 1 });
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(req.method === 'POST' ? 201 : 200, { 'Content-Type': 'application/json' });
      res.end(payload);
    });
  });
  server.listen(0, '127.0.0.1', () => console.log(`ready ${server.address().port} {}`));
} else {
  const dir = mkdtempSync(join(tmpdir(), 'ot-bench-'));
  const storage = sqliteStorage({ filename: join(dir, 'bench.db') });
  const tracker = createTracker({ storage, rateLimit: false });
  const init = await storage.transaction((tx) =>
    tenancy.initWorkspace(
      { tx, ids: tracker.ids, now: Date.now() },
      { slug: 'bench', adminEmail: 'bench@example.com' },
    ),
  );
  const project = await tracker.run({ workspaceSlug: 'bench' }, (ctx) =>
    projects.create(ctx, { name: 'Bench' }),
  );
  const server = http.createServer(nodeHandler(tracker));
  server.listen(0, '127.0.0.1', () =>
    console.log(
      `ready ${server.address().port} ${JSON.stringify({ token: init.token, projectId: project.id })}`,
    ),
  );
}
