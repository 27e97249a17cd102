import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe } from 'vitest';
import { memoryStorage } from '../../src/adapters/memory/index.js';
import { sqliteStorage } from '../../src/adapters/sqlite/index.js';
import type { Storage } from '../../src/core/index.js';
import { describeOnPostgres, onCitus, tempPostgresStorage, testDatabaseUrl } from './postgres.js';

/** A storage adapter under test: how to make a fresh, empty store, and how to clean up after it. */
export interface AdapterUnderTest {
  name: string;
  /** A fresh, empty store. Closing it also removes whatever it left on disk. */
  create(): Promise<Storage>;
  /**
   * Shared-suite tests this adapter skips, by title, each with its reason. Only tests about one
   * process's transaction queue may be skipped: an adapter with a pool runs transactions side
   * by side, and proves their isolation by other tests instead.
   */
  skips?: Readonly<Record<string, string>>;
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

const queueSkip =
  'transactions run side by side on a pool of connections, not one after another in a queue; ' +
  'their isolation is proven by the concurrent read-modify-write, version and claim tests instead';

/** The PostgreSQL adapter, when TEST_DATABASE_URL names a server (see support/postgres.ts). */
export const postgresUnderTest: AdapterUnderTest = {
  name: 'postgres',
  create: () => tempPostgresStorage(),
  skips: {
    'does not start a second transaction while the first awaits, nor show it uncommitted writes': queueSkip,
    'shows a committed transaction’s writes to the transaction queued behind it': queueSkip,
  },
};

/**
 * The PostgreSQL adapter on a pool the embedder made (`postgresStorage({ pool })`), with
 * node-postgres's default type parsers: int8 arrives as text unless the adapter parses it itself.
 */
export const postgresUserPoolUnderTest: AdapterUnderTest = {
  ...postgresUnderTest,
  name: 'postgres (on a pool of the embedder)',
  create: () => tempPostgresStorage({ userPool: 'plain' }),
};

/**
 * Every adapter the shared suites (conformance, HTTP families, properties) run against:
 * PostgreSQL too when TEST_DATABASE_URL is set.
 */
export const adaptersUnderTest: readonly AdapterUnderTest[] = onCitus
  ? // The second run of the PostgreSQL suites, on a Citus cluster: the others ran in the first.
    [{ ...postgresUnderTest, name: 'citus' }]
  : [
      { name: 'memory', create: async () => memoryStorage() },
      { name: 'sqlite', create: tempSqliteStorage },
      ...(testDatabaseUrl ? [postgresUnderTest] : []),
    ];

/** How a suite is declared: `describe`, or `describeOnPostgres` that skips it without a server. */
export type DeclareSuite = (title: string, body: () => void) => void;

/**
 * Each adapter under test with how to declare its suite. Without TEST_DATABASE_URL, PostgreSQL is
 * listed too: its suite is declared and skipped, each of its tests reported with why.
 */
export const adapterSuites: readonly (readonly [AdapterUnderTest, DeclareSuite])[] = [
  ...adaptersUnderTest.map((adapter) => [adapter, describe] as const),
  ...(testDatabaseUrl ? [] : [[postgresUnderTest, describeOnPostgres] as const]),
];

/**
 * How many runs a property (or a model-based conformance test) gets on `adapter`: PostgreSQL
 * stores cost a schema reset and real round trips each, so they run a fifth as many (at least 5),
 * and a Citus cluster, where each statement also crosses from the coordinator to a worker and is
 * planned on both, a tenth (at least 3): the same properties, checked against a real server,
 * within the run's time. Memory and SQLite run them all.
 */
export const runsOn = (adapter: AdapterUnderTest, runs: number): number =>
  adapter.name === 'citus'
    ? Math.max(3, Math.ceil(runs / 10))
    : adapter.name.startsWith('postgres')
      ? Math.max(5, Math.ceil(runs / 5))
      : runs;
