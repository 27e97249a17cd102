import { execFile } from 'node:child_process';
import { existsSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { startCheckpointThread } from '../../src/adapters/sqlite/checkpoint-thread.js';
import { type SqliteStorage, sqliteStorage } from '../../src/adapters/sqlite/index.js';
import { sampleRow } from '../conformance/fixtures.js';
import { tempDir } from '../support/adapters.js';

/** Frames the log file has room for: it is never shortened, so this is the most it ever held. */
function walFrames(filename: string, pageSize: number): number {
  const wal = `${filename}-wal`;
  return existsSync(wal) ? Math.floor((statSync(wal).size - 32) / (pageSize + 24)) : 0;
}

async function until(condition: () => boolean): Promise<void> {
  for (let waited = 0; !condition(); waited += 5) {
    if (waited > 10_000) throw new Error('gave up waiting');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** A project of about fifteen pages (its overflow pages, its indexes, the counts) a transaction. */
const insertProject = (storage: SqliteStorage, i: number) => {
  const project = sampleRow('projects', 'wsp_1', { key: `P${i}`, description: 'x'.repeat(5000) });
  return storage.transaction((tx) => tx.collections.projects.insert(project));
};

function countProjects(filename: string): number {
  const reader = new Database(filename, { readonly: true });
  try {
    return reader.prepare('SELECT count(*) FROM projects').pluck().get() as number;
  } finally {
    reader.close();
  }
}

/**
 * `checkpointPages`: the log is copied into the database once it holds that many pages, on a
 * thread of the adapter rather than in the COMMIT that passes them (which stopped the event loop
 * for the whole copy), and it starts over from its beginning, so that it stays about that size.
 */
describe('SQLite checkpoints', () => {
  const dir = tempDir();
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('copies the log on its thread as it passes the threshold, and starts it over', async () => {
    const filename = join(dir, 'one-at-a-time.db');
    const storage = sqliteStorage({ filename, checkpointPages: 64 });
    await until(() => storage.checkpointing().runIn === 'thread');
    const transactions = 300;
    for (let i = 0; i < transactions; i++) {
      // About 4,500 frames in all if the log were never copied and started over.
      await insertProject(storage, i);
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    expect(storage.checkpointing().threadPasses).toBeGreaterThan(0);
    expect(countProjects(filename)).toBe(transactions);
    const pageSize = new Database(filename, { readonly: true }).pragma('page_size', {
      simple: true,
    }) as number;
    expect(walFrames(filename, pageSize)).toBeGreaterThan(16);
    expect(walFrames(filename, pageSize)).toBeLessThan(1000);
    await storage.close();
    // The adapter's own connection closes last: it copies the rest and removes the log.
    expect(existsSync(`${filename}-wal`)).toBe(false);
    expect(countProjects(filename)).toBe(transactions);
  });

  it('starts the log over under a load that never lets the queue go idle', async () => {
    // Fifty writers at once: each COMMIT is followed at once by the next BEGIN, so the thread's
    // passes alone never leave the whole log copied when a write begins. The storage holds its
    // writes while the thread copies the last frames.
    const filename = join(dir, 'under-load.db');
    const storage = sqliteStorage({ filename, checkpointPages: 256 });
    await until(() => storage.checkpointing().runIn === 'thread');
    let next = 0;
    await Promise.all(
      Array.from({ length: 50 }, async () => {
        while (storage.checkpointing().threadFinishes < 2 && next < 5_000)
          await insertProject(storage, next++);
      }),
    );
    expect(storage.checkpointing().threadFinishes).toBeGreaterThanOrEqual(2);
    await storage.close();
    expect(countProjects(filename)).toBe(next);
  });

  it('keeps another storage on the same file whole when one closes', async () => {
    // Closing a descriptor of a file drops every POSIX lock the process holds on it: the thread
    // opens neither the database nor its -shm file outside SQLite, so the survivor keeps its locks.
    const filename = join(dir, 'two-storages.db');
    const first = sqliteStorage({ filename, checkpointPages: 32 });
    const second = sqliteStorage({ filename, checkpointPages: 32 });
    await until(() => first.checkpointing().runIn === 'thread' && second.checkpointing().runIn === 'thread');
    for (let i = 0; i < 60; i++) await insertProject(i % 2 ? first : second, i);
    await first.close();
    for (let i = 60; i < 120; i++) await insertProject(second, i);
    await second.close();
    const reader = new Database(filename, { readonly: true });
    expect(reader.pragma('integrity_check', { simple: true })).toBe('ok');
    reader.close();
    expect(countProjects(filename)).toBe(120);
  });

  it('does not keep the process alive when the storage is never closed', async () => {
    const filename = join(dir, 'never-closed.db');
    // The built package, as an embedder runs it (`npm test` builds before it tests).
    const module = new URL('../../dist/adapters/sqlite/index.js', import.meta.url).pathname;
    const script = `
      const { sqliteStorage } = await import(${JSON.stringify(module)});
      const storage = sqliteStorage({ filename: ${JSON.stringify(filename)}, checkpointPages: 16 });
      while (storage.checkpointing().runIn !== 'thread') await new Promise((r) => setTimeout(r, 5));
      console.log('thread started');
    `;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--input-type=module', '--eval', script],
      { timeout: 30_000 },
    );
    expect(stdout).toContain('thread started');
  });

  it('hands checkpoints back to the COMMIT when its thread cannot run', async () => {
    const told: string[] = [];
    const thread = startCheckpointThread(join(dir, 'no-such-directory', 'tracker.db'), 64, (where) =>
      told.push(where),
    );
    await until(() => told.length > 0);
    expect(told).toEqual(['commit']);
    thread.wrote();
    expect(thread.pauseForFinish()).toBeUndefined();
    await thread.close();
    expect(told).toEqual(['commit']);
  });

  it('leaves an in-memory database, which has no log, to SQLite', async () => {
    const storage = sqliteStorage({ filename: ':memory:' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(storage.checkpointing().runIn).toBe('commit');
    await storage.close();
  });

  it('refuses a threshold that is not a positive whole number of pages, before it opens the file', () => {
    for (const checkpointPages of [0, -1, 1.5, Number.NaN]) {
      const filename = join(dir, 'refused.db');
      expect(() => sqliteStorage({ filename, checkpointPages })).toThrow(RangeError);
      expect(existsSync(filename)).toBe(false);
    }
  });
});
