// A PostgreSQL schema of a benchmark's own: migrated storage, a tracker over it, a client of its
// own for the SQL that seeds it, a workspace `bench` with its token, and `close` that drops it all.
import pg from 'pg';
import { postgresStorage } from '../dist/adapters/postgres/index.js';
import { createTracker, tenancy } from '../dist/core/index.js';

export async function benchSchema(url, prefix) {
  const schema = `${prefix}_${process.pid}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const storage = postgresStorage({ connectionString: url, schema });
  await storage.ready();
  const tracker = createTracker({ storage, rateLimit: false });
  const init = await storage.transaction((tx) =>
    tenancy.initWorkspace(
      { tx, ids: tracker.ids, now: Date.now() },
      { slug: 'bench', adminEmail: 'bench@example.com' },
    ),
  );
  return {
    schema,
    admin,
    storage,
    tracker,
    token: init.token,
    async close() {
      await tracker.close();
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.end();
    },
  };
}
