import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * Schemas shared by the test files of a Citus run. Creating a schema distributed by account
 * takes Citus 10 to 20 seconds of DDL on every node (each table's shards made and placed), against
 * about one on plain PostgreSQL, so a store of a Citus run claims a schema an earlier store left
 * (of this file or another), emptied, and makes one only when every one is in use. A claim is a
 * session-level advisory lock on the coordinator, held by a connection of the claimer's own: a
 * test process that dies lets go of its schemas with its connections. The database is made anew
 * for each run (`.ci/run`), and the schemas go with it.
 */
const prefix = 'ot_citus_pool_';

/** The URL without the session options of the run (which refuse statements that span shards). */
function plainUrl(url: string): string {
  const parsed = new URL(url);
  parsed.searchParams.delete('options');
  return parsed.toString();
}

/**
 * Claim connections that hold no schema now, kept for the next claim of this process: a new
 * connection is a new backend on the coordinator and on each worker, whose first statements load
 * Citus's metadata and open the worker connections again (about half a second of a claim's
 * emptying, on a busy machine). Giving a schema back unlocks it and keeps the connection.
 */
const idleClients: pg.Client[] = [];

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: plainUrl(url) });
  client.on('error', () => {});
  await client.connect();
  // An idle claim connection must not keep a finished test process alive.
  (client as unknown as { connection: { stream: { unref(): void } } }).connection.stream.unref();
  return client;
}

/** A schema claimed for one store: empty and migrated, or new (the store migrates and distributes it). */
export interface ClaimedSchema {
  schema: string;
  release(): Promise<void>;
}

/**
 * Claims an idle schema of the pool, emptied with `resetSql`, or a new one when none is idle.
 * `resetSql` empties every table (DELETE: it spans shards, so it runs without the run's options).
 */
export async function claimCitusSchema(url: string, resetSql: string): Promise<ClaimedSchema> {
  const client = idleClients.pop() ?? (await connect(url));
  let released = false;
  const release = async () => {
    if (released) return;
    released = true;
    try {
      await client.query('SELECT pg_advisory_unlock_all()');
      idleClients.push(client);
    } catch {
      await client.end().catch(() => {});
    }
  };
  try {
    const { rows } = await client.query<{ schema: string }>(
      'SELECT n.nspname AS schema FROM pg_namespace n WHERE n.nspname LIKE $1 ' +
        "AND to_regclass(quote_ident(n.nspname) || '.schema_migrations') IS NOT NULL ORDER BY random()",
      [`${prefix}%`],
    );
    for (const { schema } of rows) {
      const { rows: locked } = await client.query<{ ok: boolean }>(
        'SELECT pg_try_advisory_lock(hashtext($1)) AS ok',
        [schema],
      );
      if (!locked[0]?.ok) continue;
      try {
        await client.query(`SET search_path TO "${schema}"; ${resetSql}`);
      } catch {
        // A schema an earlier version migrated (a table this one empties is missing): dropped,
        // not reused. The statements of the reset ran as one transaction and changed nothing.
        await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => {});
        await client.query('SELECT pg_advisory_unlock(hashtext($1))', [schema]);
        continue;
      }
      return { schema, release };
    }
    const schema = `${prefix}${randomBytes(6).toString('hex')}`;
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [schema]);
    return { schema, release };
  } catch (error) {
    await release();
    throw error;
  }
}
