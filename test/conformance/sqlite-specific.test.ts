import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SchemaTooNew, sqliteStorage } from '../../src/adapters/sqlite/index.js';
import { migrate } from '../../src/adapters/sqlite/migrate.js';
import { latestVersion, migrations } from '../../src/adapters/sqlite/migrations/index.js';
import type { Storage } from '../../src/core/index.js';
import { tempDir } from '../support/adapters.js';
import {
  at,
  macrotask,
  sampleDelivery,
  sampleIdempotency,
  sampleRow,
  sampleSignal,
  sampleToken,
} from './fixtures.js';

/** Runs the writer script in another Node process; resolves with the counter values it drew. */
function otherProcess(filename: string, rounds: number, entryId: string): Promise<number[]> {
  const loader = fileURLToPath(new URL('../support/ts-loader/register.mjs', import.meta.url));
  const script = fileURLToPath(new URL('./sqlite-writer.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', loader, script, filename, String(rounds), entryId], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk) => {
    out += chunk;
  });
  child.stderr.on('data', (chunk) => {
    err += chunk;
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out) as number[]) : reject(new Error(`writer exited ${code}: ${err}`)),
    );
  });
}

describe('the sqlite storage adapter on a file', () => {
  let dir: string;
  let filename: string;
  const open: Storage[] = [];
  const openStorage = () => {
    const storage = sqliteStorage({ filename });
    open.push(storage);
    return storage;
  };
  /** A separate connection straight to the file, bypassing the adapter. */
  const direct = () => new Database(filename, { readonly: true });

  beforeEach(() => {
    dir = tempDir();
    filename = join(dir, 'tracker.db');
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps committed data across close and reopen', async () => {
    const project = sampleRow('projects', 'wsp_1', { key: 'APO' });
    const first = openStorage();
    await first.transaction(async (tx) => {
      await tx.collections.projects.insert(project);
      await tx.signals.append(sampleSignal('acc_1'));
    });
    await first.close();
    const second = openStorage();
    await second.transaction(async (tx) => {
      expect(await tx.collections.projects.get('wsp_1', project.id)).toEqual(project);
      expect(await tx.signals.latestSequence('acc_1')).toBe(1);
    });
  });

  it('records the schema version in user_version and applies no migration twice', async () => {
    await openStorage().close();
    const db = new Database(filename);
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(latestVersion);
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(migrate(db)).toEqual([]);
    } finally {
      db.close();
    }
    // Reopening through the adapter applies nothing either (it would fail on existing tables).
    await openStorage().transaction((tx) => tx.counters.next('wsp_1', 'c'));
  });

  it('applies only the migrations a database lacks, in order', () => {
    const db = new Database(':memory:');
    try {
      const first = { version: 1, name: 'one', sql: 'CREATE TABLE one (x INTEGER) STRICT;' };
      const second = { version: 2, name: 'two', sql: 'CREATE TABLE two (x INTEGER) STRICT;' };
      expect(migrate(db, [first]).map((m) => m.name)).toEqual(['one']);
      expect(migrate(db, [first, second]).map((m) => m.name)).toEqual(['two']);
      expect(db.pragma('user_version', { simple: true })).toBe(2);
      const broken = { version: 3, name: 'broken', sql: 'CREATE TABLE three (x INTEGER); NOT SQL;' };
      expect(() => migrate(db, [first, second, broken])).toThrow();
      // The failed migration left neither its table nor its version behind.
      expect(db.pragma('user_version', { simple: true })).toBe(2);
      expect(db.prepare("SELECT COUNT(*) AS n FROM sqlite_master WHERE name = 'three'").get()).toEqual({
        n: 0,
      });
    } finally {
      db.close();
    }
  });

  it('upgrades a version-1 database: the list totals it keeps count the rows that were already there', async () => {
    // A database as the first release left it, with rows written before totals were kept.
    const old = new Database(filename);
    migrate(old, migrations.slice(0, 1));
    const rows = [
      sampleRow('issues', 'wsp_1', { status: 'open', assigneeId: null }),
      sampleRow('issues', 'wsp_1', { status: 'open', assigneeId: 'usr_1' }),
      sampleRow('issues', 'wsp_1', { status: 'closed', assigneeId: null }),
      sampleRow('issues', 'wsp_2', { status: 'open', assigneeId: null }),
    ];
    const insert = old.prepare(
      'INSERT INTO issues (id, workspace_id, created_at, updated_at, version, project_id, outcome_id, status, ' +
        'severity, assignee_id, number, data) VALUES (?, ?, ?, ?, 1, ?, NULL, ?, ?, ?, ?, ?)',
    );
    for (const [i, r] of rows.entries()) {
      insert.run(
        r.id,
        r.workspaceId,
        r.createdAt,
        r.updatedAt,
        r.projectId,
        r.status,
        r.severity,
        r.assigneeId,
        i + 1,
        JSON.stringify(r),
      );
    }
    old.close();
    const storage = openStorage();
    const total = (where: Record<string, string | null>) =>
      storage.transaction(
        async (tx) => (await tx.collections.issues.list({ workspaceId: 'wsp_1', where, limit: 1 })).total,
      );
    expect(await total({})).toBe(3);
    expect(await total({ status: 'open' })).toBe(2);
    expect(await total({ assigneeId: null })).toBe(2);
    expect(await total({ assigneeId: 'usr_1' })).toBe(1);
    expect(await total({ status: 'closed' })).toBe(1);
    await storage.transaction((tx) => tx.collections.issues.delete('wsp_1', rows[0]?.id ?? ''));
    expect(await total({ status: 'open' })).toBe(1);
  });

  it('refuses a database migrated by a newer version, with a clear error', async () => {
    await openStorage().close();
    const db = new Database(filename);
    db.pragma(`user_version = ${latestVersion + 1}`);
    db.close();
    expect(() => sqliteStorage({ filename })).toThrow(SchemaTooNew);
    expect(() => sqliteStorage({ filename })).toThrow(/newer than this outcome-tracker knows/);
  });

  it('writes rows a separate connection can read: indexed columns and the JSON record', async () => {
    const storage = openStorage();
    const issue = sampleRow('issues', 'wsp_1', { projectId: 'prj_7', number: 42, outcomeId: null });
    await storage.transaction((tx) => tx.collections.issues.insert(issue));
    const db = direct();
    try {
      const row = db
        .prepare('SELECT id, workspace_id, project_id, number, outcome_id, version, data FROM issues')
        .get() as Record<string, unknown>;
      expect(row).toMatchObject({
        id: issue.id,
        workspace_id: 'wsp_1',
        project_id: 'prj_7',
        number: 42,
        outcome_id: null,
        version: 1,
      });
      expect(JSON.parse(row.data as string)).toEqual(issue);
    } finally {
      db.close();
    }
  });

  it('leaves every table empty after a rolled-back transaction, as a separate connection sees it', async () => {
    const storage = openStorage();
    await expect(
      storage.transaction(async (tx) => {
        await tx.collections.issues.insert(sampleRow('issues', 'wsp_1'));
        await tx.signals.append(sampleSignal('acc_1'));
        await tx.idempotency.put(sampleIdempotency('wsp_1', 'k', at(0)), at(-1));
        await tx.deliveries.insert(sampleDelivery('acc_1', 'whk_1'));
        await tx.counters.next('wsp_1', 'issues:prj_1');
        await tx.tokens.insert(sampleToken('wsp_1'));
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    const db = direct();
    try {
      for (const table of [
        'issues',
        'issues_search',
        'signals',
        'idempotency_keys',
        'deliveries',
        'counters',
        'tokens',
      ]) {
        expect({ table, ...(db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as object) }).toEqual({
          table,
          n: 0,
        });
      }
    } finally {
      db.close();
    }
  });

  it('does not let a separate connection see writes before the transaction commits', async () => {
    const storage = openStorage();
    const db = direct();
    try {
      const count = () => (db.prepare('SELECT COUNT(*) AS n FROM projects').get() as { n: number }).n;
      await storage.transaction(async (tx) => {
        await tx.collections.projects.insert(sampleRow('projects', 'wsp_1'));
        await macrotask();
        expect(count()).toBe(0);
      });
      expect(count()).toBe(1);
    } finally {
      db.close();
    }
  });

  it('answers each of many concurrent writes only once a separate connection sees it', async () => {
    const storage = openStorage();
    const db = direct();
    try {
      const exists = db.prepare('SELECT COUNT(*) AS n FROM projects WHERE id = ?');
      const seenAtAnswer = await Promise.all(
        Array.from({ length: 20 }, async () => {
          const row = sampleRow('projects', 'wsp_1');
          await storage.transaction(async (tx) => {
            await tx.collections.projects.insert(row);
            await macrotask();
          });
          return (exists.get(row.id) as { n: number }).n;
        }),
      );
      expect(seenAtAnswer).toEqual(Array(20).fill(1));
    } finally {
      db.close();
    }
  });

  it('keeps a group commit going past a member that failed before writing, and runs the others again after one that failed having written', async () => {
    const storage = openStorage();
    const runs: Record<string, number> = {};
    type Failure = 'none' | 'before writing' | 'after writing';
    const member = (name: string, failure: Failure = 'none') =>
      storage.transaction(async (tx) => {
        runs[name] = (runs[name] ?? 0) + 1;
        if (failure === 'before writing') throw new Error(`${name} fails`);
        await tx.collections.projects.insert(sampleRow('projects', 'wsp_1', { name }));
        await macrotask();
        if (failure === 'after writing') throw new Error(`${name} fails`);
        return name;
      });
    const settled = async (members: Promise<string>[]) =>
      (await Promise.allSettled(members)).map((o) => (o.status === 'fulfilled' ? o.value : String(o.reason)));
    const names = () =>
      storage.transaction(async (tx) =>
        (await tx.collections.projects.list({ workspaceId: 'wsp_1', limit: 100 })).rows
          .map((p) => p.name)
          .sort(),
      );

    // Queued together, they share one transaction: a member that wrote nothing is simply left out.
    expect(await settled([member('a'), member('b', 'before writing'), member('c')])).toEqual([
      'a',
      'Error: b fails',
      'c',
    ]);
    expect(runs).toEqual({ a: 1, b: 1, c: 1 });
    expect(await names()).toEqual(['a', 'c']);

    // One that wrote is undone with the whole group: the members that had succeeded run again
    // (each in a savepoint), the failed one is answered once, and nothing of it stays.
    expect(
      await settled([member('d'), member('e', 'after writing'), member('f'), member('g', 'before writing')]),
    ).toEqual(['d', 'Error: e fails', 'f', 'Error: g fails']);
    expect(runs).toMatchObject({ d: 2, e: 1, f: 1, g: 1 });
    expect(await names()).toEqual(['a', 'c', 'd', 'f']);
  });

  it('shows reads queued behind a write what it wrote, and reads queued before it what was there', async () => {
    const storage = openStorage();
    const project = sampleRow('projects', 'wsp_1');
    const read = () =>
      storage.transaction((tx) => tx.collections.projects.get('wsp_1', project.id), { mode: 'read' });
    const before = [read(), read(), read()];
    const write = storage.transaction((tx) => tx.collections.projects.insert(project));
    const after = [read(), read(), read()];
    expect(await Promise.all(before)).toEqual([null, null, null]);
    await write;
    expect(await Promise.all(after)).toEqual([project, project, project]);
  });

  it('gives a read queued after another connection committed a snapshot that holds the commit', async () => {
    const mine = openStorage();
    const other = openStorage();
    const project = sampleRow('projects', 'wsp_1');
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // A read transaction that stays open across the other connection's commit…
    const early = mine.transaction(
      async (tx) => {
        const seen = await tx.collections.projects.get('wsp_1', project.id);
        await held;
        return seen;
      },
      { mode: 'read' },
    );
    await macrotask();
    await other.transaction((tx) => tx.collections.projects.insert(project));
    // …and one queued after that commit, while the first is still open: it must not share the
    // first one's older snapshot.
    const late = mine.transaction((tx) => tx.collections.projects.get('wsp_1', project.id), { mode: 'read' });
    await macrotask();
    release();
    expect(await early).toBeNull();
    expect(await late).toEqual(project);
  });

  it('runs again as a write a read that tries to write, while the reads queued with it share one snapshot', async () => {
    const statements: string[] = [];
    const storage = sqliteStorage({ filename, onStatement: (sql) => statements.push(sql) });
    open.push(storage);
    const token = sampleToken('wsp_1');
    await storage.transaction((tx) => tx.tokens.insert(token));
    statements.length = 0;
    const reads = Array.from({ length: 5 }, () =>
      storage.transaction((tx) => tx.tokens.get(token.id), { mode: 'read' }),
    );
    const touching = storage.transaction(
      async (tx) => {
        await tx.tokens.touch('wsp_1', token.id, at(7));
        return tx.tokens.get(token.id);
      },
      { mode: 'read' },
    );
    expect((await Promise.all(reads)).map((t) => t?.id)).toEqual(Array(5).fill(token.id));
    expect((await touching)?.lastUsedAt).toBe(at(7));
    const transactions = statements.filter((sql) => /^BEGIN/.test(sql));
    // One shared read for the six, then the touching one again, alone, as a write.
    expect(transactions).toEqual(['BEGIN', 'BEGIN IMMEDIATE']);
  });

  it('writes the search index in batches, and a search (even in a read transaction) first writes what waits', async () => {
    const storage = openStorage();
    const project = sampleRow('projects', 'wsp_1', { name: 'Zeppelin launch' });
    await storage.transaction((tx) => tx.collections.projects.insert(project));
    const waiting = () => {
      const db = direct();
      try {
        return db.prepare('SELECT count(*) FROM search_pending').pluck().get();
      } finally {
        db.close();
      }
    };
    // One COMMIT leaves the row noted, not yet indexed…
    expect(waiting()).toBe(1);
    const found = await storage.transaction(
      (tx) => tx.collections.projects.list({ workspaceId: 'wsp_1', search: 'eppeli', limit: 10 }),
      { mode: 'read' },
    );
    // …and a search indexes it before it reads.
    expect(found.rows.map((row) => row.id)).toEqual([project.id]);
    expect(waiting()).toBe(0);
    // Every few COMMITs write the index without any search: of eight rows written one per
    // transaction, not all are still waiting.
    for (let i = 0; i < 8; i++) {
      await storage.transaction((tx) => tx.collections.projects.insert(sampleRow('projects', 'wsp_1')));
    }
    expect(waiting()).toBeLessThan(8);
  });

  it('lets two processes write one file concurrently with no lost update', async () => {
    const storage = openStorage();
    const entry = sampleRow('timeEntries', 'wsp_1', { minutes: 0 });
    await storage.transaction((tx) => tx.collections.timeEntries.insert(entry));
    const rounds = 20;
    const mine = async () => {
      const drawn: number[] = [];
      for (let i = 0; i < rounds; i++) {
        await storage.transaction(async (tx) => {
          drawn.push(await tx.counters.next('wsp_1', 'shared'));
          const current = await tx.collections.timeEntries.get('wsp_1', entry.id);
          if (!current) throw new Error('entry not found');
          await macrotask();
          await tx.collections.timeEntries.update(
            { ...current, minutes: current.minutes + 1, version: current.version + 1 },
            current.version,
          );
        });
      }
      return drawn;
    };
    const [theirs, ours] = await Promise.all([otherProcess(filename, rounds, entry.id), mine()]);
    expect([...theirs, ...ours].sort((a, b) => a - b)).toEqual(
      Array.from({ length: 2 * rounds }, (_, i) => i + 1),
    );
    const final = await storage.transaction((tx) => tx.collections.timeEntries.get('wsp_1', entry.id));
    expect(final).toMatchObject({ minutes: 2 * rounds, version: 2 * rounds + 1 });
  });

  it('works on an in-memory database', async () => {
    const storage = sqliteStorage({ filename: ':memory:' });
    open.push(storage);
    expect(await storage.transaction((tx) => tx.counters.next('wsp_1', 'c'))).toBe(1);
  });
});
