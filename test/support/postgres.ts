import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll } from 'vitest';
import { type PostgresStorage, postgresStorage } from '../../src/adapters/postgres/index.js';
import { collectionTables } from '../../src/core/families/collections.js';
import { claimCitusSchema } from './citus-schemas.js';
import { describeUnless } from './describe-unless.js';
import { loadSqlParser } from './distribution-check.js';
import { recordAdapterStatements, type StatementRecorder } from './statement-recorder.js';

/**
 * The PostgreSQL server the tests use, from TEST_DATABASE_URL (`.ci/run` sets it). Unset: the
 * PostgreSQL tests are skipped, saying why. Set but unreachable: they fail, never skip.
 */
export const testDatabaseUrl: string | undefined = process.env.TEST_DATABASE_URL || undefined;

/**
 * The test database is a Citus coordinator (the `citus` project of vitest.config.ts sets this with
 * TEST_DATABASE_URL): every schema is distributed by account when it is created.
 */
export const onCitus = process.env.TEST_DATABASE_KIND === 'citus';

export const postgresSkipReason =
  'TEST_DATABASE_URL is unset (set it to a PostgreSQL URL such as postgres://postgres@127.0.0.1:5432/test)';

/** A title as it reads with PostgreSQL, or followed by why its tests are skipped without it. */
export const postgresTitle = (title: string): string =>
  testDatabaseUrl ? title : `${title} (skipped: ${postgresSkipReason})`;

/** `describe`, skipped (its title saying why) unless TEST_DATABASE_URL names a server. */
export function describeOnPostgres(title: string, body: () => void): void {
  describeUnless(testDatabaseUrl ? null : postgresSkipReason, title, body);
}

/**
 * The distribution check (statement-recorder.ts): every statement the PostgreSQL adapter sends
 * while this test file runs is checked for staying inside one account; after the file's last
 * test, the file fails listing each one that does not, with the tests that sent it. Every
 * suite that runs on PostgreSQL reaches this module (through adapters.ts or directly), so the
 * check covers them all.
 */
export const distributionCheck: StatementRecorder | undefined = testDatabaseUrl
  ? await (async () => {
      await loadSqlParser();
      const recorder = recordAdapterStatements();
      afterAll(() => {
        const report = recorder.report();
        if (report !== null) throw new Error(report);
      });
      return recorder;
    })()
  : undefined;

/** A fresh schema name, unique to this run. */
export const freshSchema = (): string => `ot_test_${randomBytes(6).toString('hex')}`;

/** The test database URL, or an error naming the variable when it is unset. */
export function requireDatabaseUrl(): string {
  if (!testDatabaseUrl) throw new Error(postgresSkipReason);
  return testDatabaseUrl;
}

/** Drops a schema and everything in it, on a connection of its own. */
export async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: requireDatabaseUrl() });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

/** Every table the adapter keeps rows in, emptied between stores (DELETE: far cheaper than TRUNCATE here). */
export const resetTablesSql = [
  'accounts',
  'workspaces',
  'users',
  'memberships',
  'tokens',
  'sessions',
  // Each family's collection, from the family list: a new family's table is emptied too.
  ...Object.values(collectionTables),
  'signals',
  'idempotency_keys',
  'counters',
  'webhooks',
  'deliveries',
  'delivery_attempts',
  'rate_limits',
  'rate_limit_runs',
  'storage_time_shares',
  'watchers',
  'watched_events',
  'notification_reads',
  'due_accounts',
  'workspace_routes',
  'token_routes',
  'tenant_locks',
  'outcome_issue_counts',
  'issue_list_counts',
]
  .map((table) => `DELETE FROM ${table};`)
  .join(' ');

/**
 * Migrated schemas of this test file that no store uses now: creating and dropping a schema
 * costs about a second of DDL, so a closed store's schema is emptied and handed to the next
 * one, and every schema of the file is dropped after its last test.
 */
const idleSchemas: string[] = [];
const fileSchemas = new Set<string>();
if (testDatabaseUrl) {
  afterAll(async () => {
    const schemas = [...fileSchemas];
    fileSchemas.clear();
    idleSchemas.length = 0;
    for (const schema of schemas) await dropSchema(schema);
  });
}

/** Empties a schema's tables and restarts its signal sequence. */
async function resetSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: requireDatabaseUrl() });
  await client.connect();
  try {
    await client.query(`SET search_path TO "${schema}"; ${resetTablesSql}`);
  } finally {
    await client.end();
  }
}

type TempOptions = {
  poolMax?: number;
  maxAttempts?: number;
  /**
   * The storage runs on a plain pg.Pool the test makes (node-postgres's default type parsers,
   * so int8 comes as strings), passed as `pool`, as an embedder may: the adapter must not rely
   * on the parsers of its own pool. `pipelining`: the pool pipelines, as the storage's own does.
   * The pool is ended when the store closes.
   */
  userPool?: 'plain' | 'pipelining';
};

/**
 * An empty, migrated PostgreSQL store, on a schema of its own while it is open (reused by a
 * later store of this test file once it closes, dropped after the file; on a Citus run, a schema
 * of the run's pool: citus-schemas.ts). Pools stay small: many test files run at once against
 * one server.
 */
export async function tempPostgresStorage(options: TempOptions = {}): Promise<PostgresStorage> {
  if (onCitus) {
    const claimed = await claimCitusSchema(requireDatabaseUrl(), resetTablesSql);
    return openOn(claimed.schema, options, claimed.release);
  }
  const schema = idleSchemas.pop() ?? freshSchema();
  fileSchemas.add(schema);
  // A schema that never became ready is left for the file's drop, not handed on.
  return openOn(schema, options, async (used) => {
    if (!used) return;
    await resetSchema(schema);
    idleSchemas.push(schema);
  });
}

/** A store on `schema`, ready; `done` runs once it closes (`used`: it was ready, so may hold rows). */
async function openOn(
  schema: string,
  options: TempOptions,
  done: (used: boolean) => Promise<void>,
): Promise<PostgresStorage> {
  const max = options.poolMax ?? 4;
  const userPool = options.userPool
    ? new pg.Pool({
        connectionString: requireDatabaseUrl(),
        max,
        pipeline: options.userPool === 'pipelining',
      } as pg.PoolConfig)
    : undefined;
  const storage = postgresStorage({
    ...(userPool ? { pool: userPool } : { connectionString: requireDatabaseUrl(), poolMax: max }),
    schema,
    ...(options.maxAttempts ? { maxAttempts: options.maxAttempts } : {}),
  });
  try {
    await storage.ready();
  } catch (error) {
    await storage.close();
    await userPool?.end();
    await done(false);
    throw error;
  }
  let closed = false;
  return {
    ...storage,
    transaction: (fn, transactionOptions) => storage.transaction(fn, transactionOptions),
    close: async () => {
      if (closed) return;
      closed = true;
      await storage.close();
      await userPool?.end();
      await done(true);
    },
  };
}
