// Latency of GET /outcomes/{id}/summary on an outcome with BENCH_ISSUES (10,000) issues, in
// process (tracker.handle), p50 of 40 after 5 warm-ups: on SQLite (a file seeded as seed.js
// seeds, every issue then linked to one outcome), and on PostgreSQL when BENCH_DATABASE_URL or
// TEST_DATABASE_URL names one (a schema of its own, dropped after; the issues copied from one
// created through the API, then VACUUM ANALYZE as autovacuum would).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { sqliteStorage } from '../dist/adapters/sqlite/index.js';
import { createTracker, outcomes, projects } from '../dist/core/index.js';
import { benchSchema } from './postgres-schema.js';
import { seedDatabase } from './seed.js';

const count = Number(process.env.BENCH_ISSUES ?? 10_000);
const pgUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;

async function p50(tracker, outcomeId, token) {
  const get = () =>
    tracker.handle({
      method: 'GET',
      path: `/api/v1/outcomes/${outcomeId}/summary`,
      headers: { authorization: `Bearer ${token}` },
    });
  const first = await get();
  if (first.status !== 200) throw new Error(`summary answered ${first.status}: ${first.body}`);
  const total = JSON.parse(String(first.body)).issues.total;
  for (let i = 0; i < 5; i++) await get();
  const times = [];
  for (let i = 0; i < 40; i++) {
    const started = performance.now();
    await get();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { total, ms: times[times.length >> 1] };
}

async function onSqlite() {
  const dir = mkdtempSync(join(tmpdir(), 'ot-bench-summary-'));
  try {
    const file = join(dir, 'tracker.db');
    const info = await seedDatabase(file, count);
    let tracker = createTracker({ storage: sqliteStorage({ filename: file }), rateLimit: false });
    const outcome = await tracker.run({ workspaceSlug: 'bench' }, (ctx) =>
      outcomes.create(ctx, { projectId: info.projectId, title: 'Benchmarked' }),
    );
    await tracker.close();
    const db = new Database(file);
    db.prepare("UPDATE issues SET outcome_id = ?, data = json_set(data, '$.outcomeId', ?)").run(
      outcome.id,
      outcome.id,
    );
    db.close();
    tracker = createTracker({ storage: sqliteStorage({ filename: file }), rateLimit: false });
    try {
      return await p50(tracker, outcome.id, info.token);
    } finally {
      await tracker.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function onPostgres() {
  const { schema, admin, tracker, token, createIssue, recount, close } = await benchSchema(
    pgUrl,
    'bench_summary',
  );

  try {
    const project = await tracker.run({ workspaceSlug: 'bench' }, (ctx) =>
      projects.create(ctx, { name: 'P' }),
    );
    const outcome = await tracker.run({ workspaceSlug: 'bench' }, (ctx) =>
      outcomes.create(ctx, { projectId: project.id, title: 'Benchmarked' }),
    );
    const seedId = await createIssue({ projectId: project.id, outcomeId: outcome.id, title: 'Seed' });
    const { rows } = await admin.query(
      "SELECT column_name FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'issues' AND column_name <> 'pk' ORDER BY ordinal_position",
      [schema],
    );
    const columns = rows.map((r) => r.column_name);
    const varied = {
      id: "id || '_' || g",
      number: 'number + g',
      status: "(ARRAY['open','in_progress','blocked','resolved','closed'])[1 + g % 5]",
      severity: "(ARRAY['low','medium','high','critical'])[1 + g % 4]",
    };
    await admin.query(
      `INSERT INTO "${schema}".issues (${columns.join(', ')}) SELECT ${columns.map((c) => varied[c] ?? c).join(', ')} ` +
        `FROM "${schema}".issues, generate_series(1, ${count - 1}) g WHERE id = $1`,
      [seedId],
    );
    // Inserted beside the adapter: the counts its writes keep are made again.
    await recount();
    await admin.query(`VACUUM ANALYZE "${schema}".issues`);
    return await p50(tracker, outcome.id, token);
  } finally {
    await close();
  }
}

const results = [['SQLite', await onSqlite()]];
if (pgUrl) results.push(['PostgreSQL', await onPostgres()]);
console.log(`GET /outcomes/{id}/summary, ${count} issues in the outcome, p50 of 40 in process:`);
for (const [name, { total, ms }] of results)
  console.log(`  ${name.padEnd(10)} ${ms.toFixed(2)} ms (issues.total ${total})`);
