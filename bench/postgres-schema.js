// A PostgreSQL schema of a benchmark's own: migrated storage, a tracker over it, a client of its
// own for the SQL that seeds it, a workspace `bench` with its token, a create of an issue through
// the API, a recount of the kept counts, and `close` that drops it all.
import pg from 'pg';
import {
  allIssueCountsBackfill,
  issueLabelCountsBackfill,
  issueListCountsBackfill,
  issueTripleCountsBackfill,
  outcomeIssueCountsBackfill,
} from '../dist/adapters/postgres/counts/backfill.js';
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
    /** Creates an issue through the API (as a client would: the adapter's own statements); its id. */
    async createIssue(body) {
      const made = await tracker.handle({
        method: 'POST',
        path: '/api/v1/issues',
        headers: {
          authorization: `Bearer ${init.token}`,
          'content-type': 'application/json',
          'idempotency-key': crypto.randomUUID(),
        },
        body: JSON.stringify(body),
      });
      if (made.status !== 201) throw new Error(`the seed issue answered ${made.status}: ${made.body}`);
      return JSON.parse(String(made.body)).id;
    },
    /**
     * Counts again the issues inserted beside the adapter (by SQL), as the migrations that made
     * the kept counts did: the adapter's writes alone keep them.
     */
    async recount() {
      await admin.query(`SET search_path TO "${schema}"`);
      await admin.query('DELETE FROM outcome_issue_counts; DELETE FROM issue_list_counts');
      await admin.query(outcomeIssueCountsBackfill);
      await admin.query(issueListCountsBackfill);
      await admin.query(issueLabelCountsBackfill);
      await admin.query(issueTripleCountsBackfill);
      await admin.query(allIssueCountsBackfill);
      await admin.query('RESET search_path');
    },
    async close() {
      await tracker.close();
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.end();
    },
  };
}
