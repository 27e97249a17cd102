// The tracker over PostgreSQL: run it several times, or in several processes at once, against
// one database; the first to create the schema bootstraps the workspace.
import { createTracker, projects, tenancy } from 'outcome-tracker';
import { postgresStorage } from 'outcome-tracker/postgres';

if (!process.env.DATABASE_URL) {
  console.error('Set DATABASE_URL to a postgres:// URL.');
  process.exit(2);
}

const storage = postgresStorage({
  connectionString: process.env.DATABASE_URL,
  schema: process.env.TRACKER_SCHEMA ?? 'tracker',
});
// Migrated; `created` is true in the one process that made the schema: it bootstraps.
const { created } = await storage.ready();
const tracker = createTracker({ storage });

if (created) {
  await tracker.storage.transaction((tx) =>
    tenancy.initWorkspace(
      { tx, ids: tracker.ids, now: tracker.clock.now() },
      { slug: 'acme', adminEmail: 'ada@example.com' },
    ),
  );
  console.log('created the schema and the workspace acme');
}

const project = await tracker.run({ workspaceSlug: 'acme' }, (ctx) =>
  projects.create(ctx, { name: 'Apollo' }),
);
const listed = await tracker.run({ workspaceSlug: 'acme' }, (ctx) => projects.list(ctx, { limit: 50 }));
console.log(`project ${project.key}; ${listed.total} projects in acme`);
await tracker.close();
