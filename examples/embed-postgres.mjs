// The tracker over PostgreSQL: run it several times, or in several processes at once, against
// one database; ensureWorkspace makes the workspace on the first run and answers it after.
import { createTracker, ensureWorkspace, projects } from 'outcome-tracker';
import { postgresStorage } from 'outcome-tracker/postgres';

if (!process.env.DATABASE_URL) {
  console.error('Set DATABASE_URL to a postgres:// URL.');
  process.exit(2);
}

const storage = postgresStorage({
  connectionString: process.env.DATABASE_URL,
  schema: process.env.TRACKER_SCHEMA ?? 'tracker',
});
const tracker = createTracker({ storage });

// The workspace, its admin and a read_write token: made by whichever process comes first (its
// `token` is shown only then), answered to every other run, concurrent ones included.
const acme = await ensureWorkspace(tracker, { slug: 'acme', adminEmail: 'ada@example.com' });
if (acme.created) console.log('created the workspace acme');

const project = await tracker.run({ workspaceSlug: 'acme' }, (ctx) =>
  projects.create(ctx, { name: 'Apollo' }),
);
const listed = await tracker.run({ workspaceSlug: 'acme' }, (ctx) => projects.list(ctx, { limit: 50 }));
console.log(`project ${project.key}; ${listed.total} projects in acme`);
await tracker.close();
