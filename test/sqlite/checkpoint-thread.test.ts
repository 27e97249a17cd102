import { existsSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { startCheckpointer } from '../../src/adapters/sqlite/checkpointer.js';
import { sqliteStorage } from '../../src/adapters/sqlite/index.js';
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

/**
 * The log is copied into the database on a thread of the adapter, not in the COMMIT that takes
 * it past the threshold (which stopped the event loop for the whole copy), and it still starts
 * over from its beginning, so that it stays about the threshold's size.
 */
describe('checkpoints on the adapter’s thread', () => {
  const dir = tempDir();
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('copies the log into the database as it passes the threshold, and starts it over', async () => {
    const filename = join(dir, 'tracker.db');
    const storage = sqliteStorage({ filename, checkpointPages: 64 });
    await until(() => storage.checkpoints() === 'thread');
    const transactions = 300;
    for (let i = 0; i < transactions; i++) {
      // Fifteen pages or so a transaction (the row's overflow pages, its indexes, the counts):
      // about 4,500 frames if the log were never copied and started over.
      const project = sampleRow('projects', 'wsp_1', { key: `P${i}`, description: 'x'.repeat(5000) });
      await storage.transaction((tx) => tx.collections.projects.insert(project));
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    const reader = new Database(filename, { readonly: true });
    const pageSize = reader.pragma('page_size', { simple: true }) as number;
    expect(reader.prepare('SELECT count(*) FROM projects').pluck().get()).toBe(transactions);
    reader.close();
    expect(walFrames(filename, pageSize)).toBeGreaterThan(64);
    expect(walFrames(filename, pageSize)).toBeLessThan(1000);
    await storage.close();
    // The adapter's own connection closes last: it copies the rest and removes the log.
    expect(existsSync(`${filename}-wal`)).toBe(false);
    const reopened = new Database(filename, { readonly: true });
    expect(reopened.prepare('SELECT count(*) FROM projects').pluck().get()).toBe(transactions);
    reopened.close();
  });

  it('hands checkpoints back to the COMMIT when its thread cannot run', async () => {
    const told: boolean[] = [];
    const checkpointer = startCheckpointer(
      join(dir, 'no-such-directory', 'tracker.db'),
      64,
      (inCommit) => told.push(inCommit),
      () => {},
    );
    await until(() => told.length > 0);
    expect(told).toEqual([true]);
    checkpointer.committed();
    await checkpointer.close();
    expect(told).toEqual([true]);
  });

  it('refuses a threshold that is not a positive whole number of pages', () => {
    for (const checkpointPages of [0, -1, 1.5, Number.NaN]) {
      expect(() => sqliteStorage({ filename: join(dir, 'refused.db'), checkpointPages })).toThrow(RangeError);
    }
  });

  it('leaves an in-memory database, which has no log, to SQLite', async () => {
    const storage = sqliteStorage({ filename: ':memory:' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(storage.checkpoints()).toBe('commit');
    await storage.close();
  });
});
