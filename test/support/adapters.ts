import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memoryStorage } from '../../src/adapters/memory/index.js';
import { sqliteStorage } from '../../src/adapters/sqlite/index.js';
import type { Storage } from '../../src/core/index.js';

/** A storage adapter under test: how to make a fresh, empty store, and how to clean up after it. */
export interface AdapterUnderTest {
  name: string;
  /** A fresh, empty store. Closing it also removes whatever it left on disk. */
  create(): Promise<Storage>;
}

/** A fresh directory under the system temp dir, for one test database. */
export const tempDir = (): string => mkdtempSync(join(tmpdir(), 'outcome-tracker-test-'));

/** A SQLite store on a real file in a fresh temp directory, deleted when the store closes. */
export async function tempSqliteStorage(): Promise<Storage> {
  const dir = tempDir();
  const storage = sqliteStorage({ filename: join(dir, 'tracker.db') });
  return {
    transaction: (fn, options) => storage.transaction(fn, options),
    close: async () => {
      await storage.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Every adapter the shared suites (conformance, properties) run against. */
export const adaptersUnderTest: readonly AdapterUnderTest[] = [
  { name: 'memory', create: async () => memoryStorage() },
  { name: 'sqlite', create: tempSqliteStorage },
];
