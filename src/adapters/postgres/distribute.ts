import type { Pool, PoolClient } from 'pg';
import { type TableKind, tableKinds } from './distribution.js';
import { quoteIdent, quoteLiteral } from './sql.js';

/**
 * Distributes a migrated schema over a Citus cluster as distribution.ts says: the tenant tables by
 * their account, colocated with `accounts`; the reference tables copied to every node; the tables
 * keyed by something else by that key, in a group of their own; and the rate limit's functions run where
 * their key's rows are. Idempotent: a table Citus already knows is left as it is, so the same call
 * finishes a distribution an earlier one left half done, and a migration that adds a table gives it
 * its kind (migrate.ts calls this inside the migration's transaction once `accounts` is distributed).
 */

/** The database is not a Citus coordinator (no extension, or a worker): nothing was changed. */
export class NotACitusCoordinator extends Error {
  constructor(reason: string) {
    super(
      `not a Citus coordinator: ${reason}. Connect to the coordinator of a Citus 11.2+ cluster ` +
        '(CREATE EXTENSION citus on every node, workers added with citus_add_node).',
    );
    this.name = 'NotACitusCoordinator';
  }
}

/** What a distribution did, table by table (`--json` prints it as it is). */
export interface DistributionReport {
  schema: string;
  citusVersion: string;
  /** Tables this call distributed or made reference tables, in the order it did. */
  changed: Array<{ table: string; kind: TableKind['kind'] }>;
  /** Tables that already had their kind. */
  unchanged: string[];
  /** Functions this call made run where their key's rows are. */
  functions: string[];
}

export interface DistributeOptions {
  /** Shards of each distributed table; default: the cluster's `citus.shard_count`. */
  shardCount?: number;
}

type Query = Pick<PoolClient, 'query'>;

/**
 * The functions that touch only the rows of their `p_key` (in `rate_limits`' group), with their
 * argument types: Citus runs a call of one on the node that holds the key's shard, in one round
 * trip, where the coordinator would otherwise send each of its statements to that node in a
 * distributed transaction of its own (five for a take). The rate limiter calls `rate_limit_take_many`
 * (migration 22); `rate_limit_take` (migration 11) is kept for databases a previous version serves.
 */
const delegatedFunctions: ReadonlyArray<readonly [name: string, args: string]> = [
  ['rate_limit_take', 'text, bigint, bigint, bigint'],
  ['rate_limit_take_many', 'text, bigint, bigint, bigint, bigint'],
];

/** Citus's version on this database, or null when the extension is not there. */
async function citusVersion(db: Query): Promise<string | null> {
  const { rows } = await db.query<{ v: string }>(
    "SELECT extversion AS v FROM pg_extension WHERE extname = 'citus'",
  );
  return rows[0]?.v ?? null;
}

/** Whether `schema.accounts` is a distributed table already (a distributed schema, to be kept so). */
export async function isDistributed(db: Query, schema: string): Promise<boolean> {
  if ((await citusVersion(db)) === null) return false;
  const { rows } = await db.query('SELECT 1 FROM pg_dist_partition WHERE logicalrelid = to_regclass($1)', [
    `${quoteIdent(schema)}.accounts`,
  ]);
  return rows.length > 0;
}

/** The tables of `schema` that Citus knows (distributed or reference). */
async function knownTables(db: Query, schema: string): Promise<Set<string>> {
  const { rows } = await db.query<{ name: string }>(
    'SELECT c.relname AS name FROM pg_dist_partition p ' +
      'JOIN pg_class c ON c.oid = p.logicalrelid JOIN pg_namespace n ON n.oid = c.relnamespace ' +
      'WHERE n.nspname = $1',
    [schema],
  );
  return new Set(rows.map((r) => r.name));
}

/** The tables of `schema` that exist (a table distribution.ts lists may come with a later migration). */
async function existingTables(db: Query, schema: string): Promise<Set<string>> {
  const { rows } = await db.query<{ name: string }>(
    'SELECT tablename AS name FROM pg_tables WHERE schemaname = $1',
    [schema],
  );
  return new Set(rows.map((r) => r.name));
}

/** Citus's version when the database is a Citus coordinator, else why it is not. */
async function coordinatorVersion(db: Query): Promise<string | NotACitusCoordinator> {
  const version = await citusVersion(db);
  if (version === null)
    return new NotACitusCoordinator('the citus extension is not installed in this database');
  const { rows } = await db.query<{ coordinator: boolean }>('SELECT citus_is_coordinator() AS coordinator');
  return rows[0]?.coordinator === true ? version : new NotACitusCoordinator('this node is a worker');
}

/** Whether the database is a Citus coordinator (the extension there, and this node not a worker). */
export async function isCitusCoordinator(db: Query): Promise<boolean> {
  return typeof (await coordinatorVersion(db)) === 'string';
}

/** Citus's version, or NotACitusCoordinator when the database is not a Citus coordinator. */
export async function refuseUnlessCoordinator(db: Query): Promise<string> {
  const version = await coordinatorVersion(db);
  if (version instanceof NotACitusCoordinator) throw version;
  return version;
}

/**
 * The order tables are distributed in: `accounts` first (the group every tenant table joins), then
 * the other tenant tables, the reference tables, and the own-key tables (the first starts their group).
 */
function inOrder(): Array<[string, TableKind]> {
  const entries = Object.entries(tableKinds);
  const rank = (name: string, kind: TableKind) =>
    name === 'accounts' ? 0 : kind.kind === 'tenant' ? 1 : kind.kind === 'reference' ? 2 : 3;
  return entries
    .map((entry, i) => ({ entry, i }))
    .sort((a, b) => rank(...a.entry) - rank(...b.entry) || a.i - b.i)
    .map(({ entry }) => entry);
}

/** The statement that gives `table` its kind; `firstOwnKey`: the own-key table others colocate with. */
function distributeSql(
  schema: string,
  table: string,
  kind: TableKind,
  firstOwnKey: string | undefined,
  shardCount: number | undefined,
): string {
  const qualified = quoteLiteral(`${quoteIdent(schema)}.${quoteIdent(table)}`);
  if (kind.kind === 'reference') return `SELECT create_reference_table(${qualified})`;
  const shards = shardCount === undefined ? '' : `, shard_count => ${Math.trunc(shardCount)}`;
  const colocateWith =
    kind.kind === 'tenant'
      ? table === 'accounts'
        ? "'none'"
        : quoteLiteral(`${quoteIdent(schema)}.accounts`)
      : firstOwnKey === undefined || firstOwnKey === table
        ? "'none'"
        : quoteLiteral(`${quoteIdent(schema)}.${quoteIdent(firstOwnKey)}`);
  // shard_count cannot be given with a table to colocate with: that table's count is used.
  const withShards = colocateWith === "'none'" ? shards : '';
  return `SELECT create_distributed_table(${qualified}, ${quoteLiteral(kind.column)}, colocate_with => ${colocateWith}${withShards})`;
}

/** The functions of delegatedFunctions that `schema` has and Citus does not yet run where their key is: name and signature. */
async function undelegatedFunctions(db: Query, schema: string): Promise<Array<[name: string, fn: string]>> {
  const missing: Array<[string, string]> = [];
  for (const [name, args] of delegatedFunctions) {
    const fn = `${quoteIdent(schema)}.${name}(${args})`;
    const { rows } = await db.query<{ exists: boolean; delegated: boolean }>(
      // Citus lists every function it copied to the workers; one it runs where its key is has the argument.
      'SELECT to_regprocedure($2) IS NOT NULL AS exists, EXISTS (SELECT 1 FROM pg_dist_object WHERE ' +
        'classid = $1::regclass AND objid = to_regprocedure($2) AND distribution_argument_index IS NOT NULL) AS delegated',
      ['pg_proc', fn],
    );
    if (rows[0]?.exists && !rows[0].delegated) missing.push([name, fn]);
  }
  return missing;
}

/**
 * Whether every table of `schema` has its kind and every function runs where its key is: read
 * only, without the distribution's lock, so that a start with nothing to do waits for no other
 * schema's distribution.
 */
export async function isDistributionComplete(db: Query, schema: string): Promise<boolean> {
  const known = await knownTables(db, schema);
  const existing = await existingTables(db, schema);
  for (const table of existing) if (Object.hasOwn(tableKinds, table) && !known.has(table)) return false;
  return (await undelegatedFunctions(db, schema)).length === 0;
}

/** The advisory lock that keeps distributions one at a time (a key apart from the migrations' per-schema one). */
const distributionLockSql = (fn: 'pg_advisory_xact_lock' | 'pg_advisory_lock' | 'pg_advisory_unlock') =>
  `SELECT ${fn}(1869574504, 0)`;

/**
 * Gives every table of `schema` (migrated) its kind on a Citus coordinator; see the file's comment.
 * `db` may be a client inside a transaction (a migration's): the statements then run in it.
 */
export async function distributeSchema(
  db: Query,
  schema: string,
  options: DistributeOptions = {},
): Promise<DistributionReport> {
  const version = await refuseUnlessCoordinator(db);
  // One schema distributed at a time on a cluster: Citus's colocation metadata is shared, and two
  // schemas distributed at once (two stores created side by side) deadlocked on it. Held to the
  // end of a migration's transaction; `distribute` holds it for its connection's session.
  await db.query(distributionLockSql('pg_advisory_xact_lock'));
  const known = await knownTables(db, schema);
  const existing = await existingTables(db, schema);
  const report: DistributionReport = {
    schema,
    citusVersion: version,
    changed: [],
    unchanged: [],
    functions: [],
  };
  const firstOwnKey = inOrder().find(([name, kind]) => kind.kind === 'own-key' && existing.has(name))?.[0];
  for (const [table, kind] of inOrder()) {
    if (!existing.has(table)) continue;
    if (known.has(table)) {
      report.unchanged.push(table);
      continue;
    }
    await db.query(distributeSql(schema, table, kind, firstOwnKey, options.shardCount));
    report.changed.push({ table, kind: kind.kind });
  }
  if (existing.has('rate_limits')) {
    for (const [name, fn] of await undelegatedFunctions(db, schema)) {
      await db.query(
        `SELECT create_distributed_function(${quoteLiteral(fn)}, 'p_key', colocate_with => ${quoteLiteral(
          `${quoteIdent(schema)}.rate_limits`,
        )})`,
      );
      report.functions.push(name);
    }
  }
  return report;
}

/** distributeSchema on a connection of its own from `pool`. */
export async function distribute(
  pool: Pool,
  schema: string,
  options: DistributeOptions = {},
): Promise<DistributionReport> {
  const client = await pool.connect();
  try {
    await client.query(distributionLockSql('pg_advisory_lock'));
    try {
      return await distributeSchema(client, schema, options);
    } finally {
      await client.query(distributionLockSql('pg_advisory_unlock'));
    }
  } finally {
    client.release();
  }
}
