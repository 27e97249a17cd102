// Seeds a SQLite file for the benchmarks: a workspace, a token, two projects and `count` issues
// written with direct SQL inserts in large transactions (the tracker's indexes and triggers still
// run, and the list counts the adapter keeps on insert are counted afresh afterwards, so the file
// is what the API would have built, less the search index: no benchmark searches seeded rows). Reuses a file seeded before, and
// serves a fresh copy of it each run (`workingCopy`): the benchmarks' creates would otherwise
// pile up in the seeded file run after run, and "10k issues" would soon mean a million.
import {
  closeSync,
  copyFileSync,
  existsSync,
  fsyncSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import Database from 'better-sqlite3';
import { sqliteStorage } from '../dist/adapters/sqlite/index.js';
import { countedColumns } from '../dist/adapters/sqlite/migrations/002_list_counts.js';
import { backfill } from '../dist/adapters/sqlite/migrations/026_pair_and_label_counts.js';
import { triple } from '../dist/adapters/sqlite/migrations/028_triple_counts.js';
import { createTracker, projects, tenancy } from '../dist/core/index.js';

const statuses = ['open', 'in_progress', 'blocked', 'resolved', 'closed'];
const severities = ['low', 'medium', 'high', 'critical'];
const base62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A deterministic, unique 20-character id body, so reruns produce the same file. */
function idBody(n) {
  let out = '';
  let x = n;
  for (let i = 0; i < 19; i++) {
    out += base62[x % 62];
    x = Math.floor(x / 62);
  }
  return `S${out}`;
}

/** Seeds `file` with `count` issues (or reads what a previous run seeded); returns ids and a token. */
export async function seedDatabase(file, count) {
  const infoFile = `${file}.json`;
  if (existsSync(file) && existsSync(infoFile)) return JSON.parse(readFileSync(infoFile, 'utf8'));
  const storage = sqliteStorage({ filename: file });
  const tracker = createTracker({ storage, rateLimit: false });
  const init = await storage.transaction((tx) =>
    tenancy.initWorkspace(
      { tx, ids: tracker.ids, now: Date.now() },
      { slug: 'bench', adminEmail: 'bench@example.com' },
    ),
  );
  const made = [];
  for (const name of ['Alpha', 'Beta']) {
    made.push(await tracker.run({ workspaceSlug: 'bench' }, (ctx) => projects.create(ctx, { name })));
  }
  await tracker.close();

  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  const insert = db.prepare(
    'INSERT INTO issues (id, workspace_id, created_at, updated_at, version, project_id, outcome_id, status, ' +
      'severity, assignee_id, number, title, due_on, data) VALUES (?, ?, ?, ?, 1, ?, NULL, ?, ?, NULL, ?, ?, ?, ?)',
  );
  const workspaceId = init.workspaceId;
  const numbers = [0, 0];
  const start = Date.parse('2026-01-01T00:00:00.000Z');
  const batch = db.transaction((from, to) => {
    for (let i = from; i < to; i++) {
      const p = i % 10 === 0 ? 1 : 0; // 90% in Alpha, 10% in Beta
      const project = made[p];
      const number = ++numbers[p];
      const at = new Date(start + i * 1000).toISOString();
      const issue = {
        id: `iss_${idBody(i)}`,
        workspaceId,
        projectId: project.id,
        number,
        key: `${project.key}-${number}`,
        title: `Seeded issue ${i} about ${severities[i % 4]} things`,
        description: null,
        severity: severities[i % 4],
        status: statuses[i % 5],
        outcomeId: null,
        assigneeId: null,
        // One issue in ten carries `x` (the label list's bench), one in a thousand `rare` too.
        labels: i % 10 === 3 ? (i % 1000 === 3 ? ['x', 'rare'] : ['x']) : [],
        resolvedAt: null,
        // Every field a create writes, in its order: an export of the seeded file imports again.
        commentCount: 0,
        parentId: null,
        blockedBy: 0,
        subIssues: 0,
        archivedAt: null,
        external: null,
        // One issue in fifty is due, on a day of 2026 (the due-range lists' bench); none before it.
        dueOn: i % 50 === 7 ? new Date(start + (i % 365) * 86_400_000).toISOString().slice(0, 10) : null,
        estimate: null,
        createdAt: at,
        updatedAt: at,
        version: 1,
      };
      insert.run(
        issue.id,
        workspaceId,
        at,
        at,
        project.id,
        issue.status,
        issue.severity,
        number,
        issue.title,
        issue.dueOn,
        JSON.stringify(issue),
      );
    }
  });
  for (let from = 0; from < count; from += 50_000) batch(from, Math.min(count, from + 50_000));
  const setCounter = db.prepare(
    'INSERT INTO counters (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value',
  );
  for (const [p, project] of made.entries()) setCounter.run(`issues:${project.id}`, numbers[p]);
  // The counts the adapter's insert would have kept (a NULL value counted under char(0)).
  db.exec("DELETE FROM list_counts WHERE collection = 'issues'");
  db.exec(
    "INSERT INTO list_counts (collection, workspace_id, field, value, n) SELECT 'issues', workspace_id, '', '', COUNT(*) FROM issues GROUP BY workspace_id",
  );
  for (const column of countedColumns.issues) {
    db.exec(
      `INSERT INTO list_counts (collection, workspace_id, field, value, n) SELECT 'issues', workspace_id, '${column}', coalesce(${column}, char(0)), COUNT(*) FROM issues GROUP BY workspace_id, ${column}`,
    );
  }
  db.exec(backfill.pairs);
  db.exec(triple.backfill);
  // The label index the adapter's insert would have written (its counts follow by trigger), and
  // its counts by the issues' shared columns.
  db.exec(
    "INSERT OR IGNORE INTO issue_labels (workspace_id, label, issue_pk) SELECT issues.workspace_id, labels.value, issues.pk FROM issues, json_each(issues.data, '$.labels') AS labels",
  );
  db.exec('DELETE FROM issue_label_field_counts');
  db.exec(backfill.labelFields);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  const info = {
    token: init.token,
    workspaceId,
    projectId: made[0].id,
    smallProjectId: made[1].id,
    issueId: `iss_${idBody(count - 1)}`,
    count,
  };
  writeFileSync(infoFile, JSON.stringify(info));
  return info;
}

/**
 * A fresh copy of a seeded file for one run to write to (`<seeded>.<label>.db`), made anew each
 * time; the seeded file itself is never served. Servers compared with each other get a copy each
 * (a label each): two processes on one file would share its write lock and log, and each would
 * find its page cache stale after the other's writes.
 */
export function workingCopy(seeded, label = 'run') {
  const copy = seeded.replace(/\.db$/, `.${label}.db`);
  for (const suffix of ['', '-wal', '-shm']) rmSync(copy + suffix, { force: true });
  copyFileSync(seeded, copy);
  // On disk before anything is measured: the kernel would otherwise write the copy back (a
  // gigabyte for the large file) while the servers run, and slow every figure by a fifth.
  const fd = openSync(copy, 'r+');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return copy;
}
