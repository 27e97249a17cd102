// The tracker inside your own process, over in-memory storage: typed operations and plain requests.
import { randomUUID } from 'node:crypto';
import { createTracker, ensureWorkspace, issues, projects } from 'outcome-tracker';
import { memoryStorage } from 'outcome-tracker/memory';

const tracker = createTracker({ storage: memoryStorage() });

// An account, a workspace, its admin and a read_write token: what `outcome-tracker init` makes.
// On a storage that persists, a later start answers the same workspace (and no token: keep it).
const { token } = await ensureWorkspace(tracker, { slug: 'acme', adminEmail: 'ada@example.com' });

// Typed operations, in one transaction, without HTTP: as the workspace's operator...
const project = await tracker.run({ workspaceSlug: 'acme' }, (ctx) =>
  projects.create(ctx, { name: 'Apollo' }),
);
console.log(`project ${project.key} ${project.id}`);

// ...or as a token's user.
const issue = await tracker.run({ token }, (ctx) =>
  issues.create(ctx, { projectId: project.id, title: 'Write the launch checklist' }),
);
console.log(`issue ${issue.key} status=${issue.status} severity=${issue.severity}`);

// The same API as plain HTTP-shaped requests, answered in-process.
const response = await tracker.handle({
  method: 'POST',
  path: `/api/v1/issues/${issue.key}/transition`,
  headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
  body: JSON.stringify({ to: 'in_progress' }),
});
console.log(
  `POST /api/v1/issues/${issue.key}/transition -> ${response.status} ${JSON.parse(response.body).status}`,
);

const created = await tracker.handle({
  method: 'POST',
  path: '/api/v1/issues',
  headers: {
    authorization: `Bearer ${token}`,
    'content-type': 'application/json',
    'idempotency-key': randomUUID(),
  },
  body: JSON.stringify({ projectId: project.id, title: 'Book the venue', severity: 'high' }),
});
console.log(`POST /api/v1/issues -> ${created.status} ${JSON.parse(created.body).key}`);

const page = await tracker.run({ token }, (ctx) => issues.list(ctx, { limit: 10 }));
console.log(`issues total=${page.total}: ${page.data.map((i) => `${i.key} ${i.status}`).join(', ')}`);

await tracker.close();
