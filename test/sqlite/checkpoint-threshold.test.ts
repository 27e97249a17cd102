import { existsSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { sqliteStorage } from '../../src/adapters/sqlite/index.js';
import { sampleRow } from '../conformance/fixtures.js';
import { tempDir } from '../support/adapters.js';

/** Frames the log file has room for: it is never shortened, so this is the most it ever held. */
function walFrames(filename: string, pageSize: number): number {
  const wal = `${filename}-wal`;
  return existsSync(wal) ? Math.floor((statSync(wal).size - 32) / (pageSize + 24)) : 0;
}

/**
 * `checkpointPages`: the log is copied into the database once it holds that many pages, and
 * starts over from its beginning, so that it stays about that size.
 */
describe('the SQLite checkpoint threshold', () => {
  const dir = tempDir();
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('copies the log into the database as it passes the threshold, and starts it over', async () => {
    const filename = join(dir, 'tracker.db');
    const storage = sqliteStorage({ filename, checkpointPages: 64 });
    const transactions = 300;
    for (let i = 0; i < transactions; i++) {
      // Fifteen pages or so a transaction (the row's overflow pages, its indexes, the counts):
      // about 4,500 frames if the log were never copied and started over.
      const project = sampleRow('projects', 'wsp_1', { key: `P${i}`, description: 'x'.repeat(5000) });
      await storage.transaction((tx) => tx.collections.projects.insert(project));
    }
    const reader = new Database(filename, { readonly: true });
    const pageSize = reader.pragma('page_size', { simple: true }) as number;
    expect(reader.prepare('SELECT count(*) FROM projects').pluck().get()).toBe(transactions);
    reader.close();
    expect(walFrames(filename, pageSize)).toBeGreaterThan(16);
    expect(walFrames(filename, pageSize)).toBeLessThan(1000);
    await storage.close();
    // The last connection to close copies the rest and removes the log.
    expect(existsSync(`${filename}-wal`)).toBe(false);
    const reopened = new Database(filename, { readonly: true });
    expect(reopened.prepare('SELECT count(*) FROM projects').pluck().get()).toBe(transactions);
    reopened.close();
  });

  it('refuses a threshold that is not a positive whole number of pages, before it opens the file', () => {
    for (const checkpointPages of [0, -1, 1.5, Number.NaN]) {
      const filename = join(dir, 'refused.db');
      expect(() => sqliteStorage({ filename, checkpointPages })).toThrow(RangeError);
      expect(existsSync(filename)).toBe(false);
    }
  });
});
