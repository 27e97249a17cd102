import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memoryStorage } from '../adapters/memory/index.js';
import type { Storage } from '../core/index.js';

/**
 * Where a test tracker keeps its data: in memory (the default), in a SQLite file in a fresh temp
 * directory, or in a fresh schema of a PostgreSQL database; the last two are removed by close().
 */
export type TestStorageOption = 'memory' | 'sqlite' | { postgres: string };

/** A storage made for one test tracker, and how to remove what it left. */
export interface TestStorage {
  storage: Storage;
  /** Removes the temp directory or drops the schema; called after the storage closed. */
  cleanUp(): Promise<void>;
}

/** Makes the storage asked for; SQLite and PostgreSQL are loaded only when asked for. */
export async function testStorage(option: TestStorageOption): Promise<TestStorage> {
  if (option === 'memory') return { storage: memoryStorage(), cleanUp: async () => {} };
  if (option === 'sqlite') {
    const dir = await mkdtemp(join(tmpdir(), 'outcome-tracker-testing-'));
    const { sqliteStorage } = await import('../adapters/sqlite/index.js');
    return {
      storage: sqliteStorage({ filename: join(dir, 'tracker.db') }),
      cleanUp: () => rm(dir, { recursive: true, force: true }),
    };
  }
  return postgresTestStorage(option.postgres);
}

async function postgresTestStorage(connectionString: string): Promise<TestStorage> {
  const [{ default: pg }, { postgresStorage }] = await Promise.all([
    import('pg'),
    import('../adapters/postgres/index.js'),
  ]);
  // A schema of its own, so instances on one database never see each other's rows.
  const schema = `ot_testing_${randomBytes(6).toString('hex')}`;
  // Pipelined, as the storage's own pool is: statements known ahead share a round trip.
  const pool = new pg.Pool({ connectionString, max: 4, pipeline: true } as import('pg').PoolConfig);
  const storage = postgresStorage({ pool, schema });
  const cleanUp = async () => {
    try {
      await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    } finally {
      await pool.end();
    }
  };
  try {
    await storage.ready();
  } catch (error) {
    await storage.close();
    await cleanUp();
    throw error;
  }
  return { storage, cleanUp };
}
