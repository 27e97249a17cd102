import type { PoolClient, QueryConfig, QueryResult, QueryResultRow } from 'pg';
import { boundTo, deallocate } from './account-bound.js';
import type { AccountRoutes } from './account-routes.js';
import { type Prepared, prepared } from './prepared.js';
import { lockShared } from './tenant-locks.js';
import { TransactionMemo } from './transaction-memo.js';
import { typed } from './types.js';

type Params = readonly unknown[];

/** What the batch needs of the client's socket: Node's Writable corking. */
interface Corkable {
  cork(): void;
  uncork(): void;
}

export { type Prepared, prepared };

export type Sql = string | Prepared;

const textOf = (sql: Sql): string => (typeof sql === 'string' ? sql : sql.text);

/**
 * A write a store holds back until the transaction's next statement, so that a statement able
 * to carry it (signals.append carries a collection insert) sends both in one round trip; any
 * other statement, and the commit, send it first on its own. `check` judges how many rows it
 * changed (an insert that inserted nothing names the unique rule it broke).
 */
export interface HeldWrite {
  sql: string;
  params: readonly unknown[];
  /** The predicate lock to hold shared before the write (collections.ts, tenant-locks.ts): its row exists. */
  sharedLock?: { accountId: string; name: string };
  /**
   * The write as it may go with the COMMIT when no statement comes first (no `sharedLock`,
   * parameters that can be literals): one that fails, rather than changes nothing, where `sql`
   * would have `check` judge it, so that the COMMIT fails with it.
   */
  atCommitSql?: string;
  check(changed: number): Promise<void>;
  /** Statements that go right after the write, wherever it goes (an issue's labels: labels.ts). */
  after?: readonly Statement[];
}

/**
 * What the stores of one transaction use to reach the database. Every call checks that the
 * transaction is still open, so a store kept past its transaction cannot write outside one, and
 * remembers a failed statement: PostgreSQL aborts the whole transaction on one, so a COMMIT
 * afterwards must not pass for success.
 */
export interface Conn {
  /** Runs a statement; returns how many rows it changed. */
  run(sql: Sql, params?: Params): Promise<number>;
  /** The first row, or undefined. */
  row<T extends QueryResultRow>(sql: Sql, params?: Params): Promise<T | undefined>;
  rows<T extends QueryResultRow>(sql: Sql, params?: Params): Promise<T[]>;
  /** The first column of the first row, or undefined. */
  value<T>(sql: Sql, params?: Params): Promise<T | undefined>;
  values<T>(sql: Sql, params?: Params): Promise<T[]>;
  /**
   * Milliseconds this transaction's statements took, from sending each to its answer
   * (StorageTx.busyMs): the client is the transaction's alone, so that is its own use of the
   * connection and of the server (a statement waiting for a row lock holds the connection
   * meanwhile, and counts), not the wait for a connection before the transaction began.
   */
  busyMs(): number;
  /**
   * A write transaction (READ COMMITTED, explicit locks: see transaction.ts), rather than a read
   * one (statements on their own until a store asks for one snapshot).
   */
  readonly writing: boolean;
  /**
   * This run of the transaction follows one that lost a race on a row it had read to change:
   * rows read to change are locked from the start this time (see collections.ts).
   */
  readonly rerun: boolean;
  /** What the stores of this one transaction tell each other (a prefetched answer, a claimed key). */
  readonly memo: TransactionMemo;
  /** The storage's workspace → account cache (account-routes.ts), shared by its transactions. */
  readonly routes: AccountRoutes;
  /**
   * A read transaction's next statements see one snapshot (REPEATABLE READ from here on): for a
   * store whose answer takes more than one statement (a page and its total, a copy's pages).
   * Write transactions: nothing (each of their statements sees what committed before it).
   */
  consistent(): Promise<void>;
  /**
   * Several statements in one round trip, when the connection pipelines (node-postgres's
   * `pipeline` mode: each statement is sent without waiting for the one before, all in one
   * write); one after another otherwise. Their results, in order; the first failure fails the
   * call (and the transaction, like any failed statement).
   */
  batch(statements: readonly Statement[]): Promise<QueryResult[]>;
  /** Whether `batch` sends its statements in one round trip (else one after another). */
  readonly pipelines: boolean;
  /**
   * Whether the schema is distributed by account (Citus): each statement then costs a round trip
   * from the coordinator to the account's node, so a store may send one statement where it would
   * otherwise send several in one `batch`.
   */
  readonly distributed: boolean;
  /** Holds `write` back (see HeldWrite); write transactions only. */
  hold(write: HeldWrite): void;
  /** The write held back, for the statement that carries it (which must then `check` it). */
  takeHeld(): HeldWrite | undefined;
  /**
   * A write sent with the COMMIT, in the same round trip (its parameters become literals): for a
   * write whose result nothing in the transaction reads and that cannot fail but with the whole
   * transaction (the answer stored under a key this transaction claimed).
   */
  atCommit(sql: string, params: Params, options?: { last?: boolean }): WithdrawWrite;
  /**
   * Writes made at the commit from what the transaction gathered until then (`make` runs once,
   * there), sent with the COMMIT first of the writes kept for it: a fixed place, so that
   * transactions lock those rows in one order among their commit's writes. Text and number
   * parameters only.
   */
  atCommitMade(make: () => readonly { sql: string; params: Params }[]): void;
  /**
   * Reads sent at the commit after the writes kept for it (in their round trip), and the writes
   * their answers make, sent with the COMMIT: for a reference table set from a distributed
   * table's rows, which Citus refuses to do in one statement. The writes take text and number
   * parameters only.
   */
  atCommitFrom(
    reads: readonly Statement[],
    writes: (results: readonly QueryResult[]) => readonly Statement[],
  ): void;
  /**
   * Fails the transaction as lost to a deadlock (SQLSTATE 40P01), so it is run again: for a lock
   * that could only be waited for into one.
   */
  deadlocked(message: string): Error;
}

/** Takes back a write kept for the commit (Conn.atCommit), before the commit sends it. */
export type WithdrawWrite = () => void;

/** A statement of a batch: its text or prepared name, its parameters, its rows as arrays or not. */
export interface Statement {
  sql: Sql;
  params: Params;
  rowMode?: 'array';
}

/** The state of one transaction on its client: open or not, and its first failure. */
export interface TransactionState {
  open: boolean;
  failure: unknown;
}

/**
 * The `search_path` each pooled client was given: set once per connection (session level), in
 * the first round trip the storage makes on it, not in every transaction.
 */
const searchPathOf = new WeakMap<PoolClient, string>();

/**
 * A string as a literal, written as pg's escapeLiteral writes it (quotes doubled; with a
 * backslash, an E'' literal with backslashes doubled), with native replaces rather than its loop
 * over each character: the texts written in are the rows and events a create stores.
 */
function quoted(value: string): string {
  const text = value.replaceAll("'", "''");
  return value.includes('\\') ? ` E'${text.replaceAll('\\', '\\\\')}'` : `'${text}'`;
}

/** A parameter as a literal of the simple query protocol (all text, like the extended protocol's). */
function literal(value: unknown): string | undefined {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'string') return quoted(value);
  if (typeof value === 'number' && Number.isFinite(value)) return `'${value}'`;
  if (typeof value === 'boolean') return value ? "'true'" : "'false'";
  return undefined;
}

/**
 * The statement with its parameters written in as literals, or undefined when one cannot be
 * (an array, an object) or the text holds a quoted literal a `$n` might hide in.
 */
function inlined(sql: string, params: Params): string | undefined {
  if (sql.includes("'") || sql.includes('"') || sql.includes('--')) return undefined;
  const literals = params.map(literal);
  if (literals.some((l) => l === undefined)) return undefined;
  let missing = false;
  const text = sql.replace(/\$(\d+)/g, (_, n: string) => {
    const value = literals[Number(n) - 1];
    if (value === undefined) missing = true;
    return value ?? '';
  });
  return missing ? undefined : text;
}

/**
 * The writes kept for the commit, prepared under names of their own: a pipelining client sends
 * them with the COMMIT as statements PostgreSQL parses once per connection. Their texts are few
 * (one per kind of write); past a bound (texts made per call, a lock of n accounts) they go
 * unnamed.
 */
const commitStatements = new Map<string, Prepared>();
const maxCommitStatements = 256;
function preparedForCommit(sql: string): Sql {
  let found = commitStatements.get(sql);
  if (found === undefined && commitStatements.size < maxCommitStatements) {
    found = prepared(sql);
    commitStatements.set(sql, found);
  }
  return found ?? sql;
}

/** A statement that only reads: a plain SELECT, locking nothing and drawing no number. */
const readsOnly = (sql: string): boolean =>
  sql.startsWith('SELECT ') &&
  !/\b(INSERT|UPDATE|DELETE|FOR|nextval|setval|pg_advisory\w*|pg_try_advisory\w*)\b/.test(sql);

/**
 * A statement marked as spanning accounts (`/* all accounts: why *\/`): maintenance, the operator's
 * and a copy's reads. On a Citus cluster checked for single-shard requests
 * (`citus.multi_task_query_log_level = 'error'`, as the tests run), such a statement runs in a
 * transaction that lets it reach every shard; elsewhere the setting is a name without effect.
 */
const spansAccounts = (sql: string): boolean => sql.startsWith('/* all accounts');
const spanningAllowed = "SET LOCAL citus.multi_task_query_log_level TO 'off'";

/** What running a statement on its own takes of a client: node-postgres's query. */
interface Queryable {
  query<R extends QueryResultRow>(text: string | QueryConfig, values?: unknown[]): Promise<QueryResult<R>>;
}

/**
 * A statement marked `/* all accounts: … *\/` sent outside the stores' transactions (a settle's
 * read of every account's bucket, a maintenance sweep), in a transaction of its own that lets it
 * reach every shard (as `spanningAllowed` does for a store's): BEGIN and the setting, the
 * statement, COMMIT, queued together (one round trip on a pipelining client). A failed statement
 * makes the COMMIT a rollback.
 */
export async function spanningQuery<R extends QueryResultRow>(
  client: Queryable,
  sql: string,
  params: unknown[],
): Promise<QueryResult<R>> {
  if (!spansAccounts(sql))
    throw new Error('only a statement marked as spanning accounts (spansAccounts) spans them');
  const sent = [
    client.query(`BEGIN; ${spanningAllowed}`),
    client.query<R>(typed({ text: sql, values: params })),
    client.query('COMMIT'),
  ];
  const settled = await Promise.allSettled(sent);
  const failed = settled.find((result) => result.status === 'rejected');
  if (failed !== undefined) throw failed.reason;
  return (settled[1] as PromiseFulfilledResult<QueryResult<R>>).value;
}

/** spanningQuery on a client of the pool's own. */
export async function spanningPoolQuery<R extends QueryResultRow>(
  pool: { connect(): Promise<Queryable & { release(): void }> },
  sql: string,
  params: unknown[],
): Promise<QueryResult<R>> {
  const client = await pool.connect();
  try {
    return await spanningQuery<R>(client, sql, params);
  } finally {
    client.release();
  }
}

/** The last result of a (possibly multi-statement) simple query. */
const lastOf = (result: QueryResult | QueryResult[]): QueryResult =>
  Array.isArray(result) ? (result[result.length - 1] as QueryResult) : result;

export interface TransactionConn extends Conn {
  /** Ends the transaction: COMMIT with the writes kept for it (write), or the snapshot's end. */
  commit(): Promise<void>;
  /** Rolls back what was begun; forgets the connection's search_path (a rolled-back SET is undone). */
  rollback(): Promise<void>;
}

/**
 * A Conn over `client`, valid while `state.open` holds. Round trips are few: the search_path
 * (once per connection) and a transaction's BEGIN travel with its first statement that is not a
 * plain read, as one simple query; the writes kept for the commit travel with the COMMIT.
 */
export function transactionConn(
  client: PoolClient,
  state: TransactionState,
  options: {
    writing: boolean;
    searchPathSql: string;
    routes: AccountRoutes;
    rerun?: boolean;
    /** Statements naming their account parameter are prepared per account (account-bound.ts): on Citus. */
    bindsAccounts?: boolean;
  },
): TransactionConn {
  const { writing, searchPathSql } = options;
  /**
   * A prepared statement as the client sends it: bound to its account where the schema is
   * distributed, after the DEALLOCATE of one the connection no longer keeps.
   */
  function sendPrepared(sql: Prepared, params: Params, array: { rowMode?: 'array' }): Promise<QueryResult> {
    const sent = options.bindsAccounts ? boundTo(client, sql, params) : { sql, params };
    if (sent.evicted !== undefined) void deallocate(client, sent.evicted)?.catch(() => {});
    return client.query(
      typed({ name: sent.sql.name, text: sent.sql.text, values: [...sent.params], ...array }),
    );
  }
  let spentMs = 0;
  let begun = false;
  let held: HeldWrite | undefined;
  // The writes kept for the commit: statements a pipelining client sends prepared, else texts.
  const atCommit: Statement[] = [];
  const atCommitLast: Statement[] = [];
  const atCommitReads: {
    reads: readonly Statement[];
    writes: (results: readonly QueryResult[]) => readonly Statement[];
  }[] = [];
  const atCommitMakers: (() => readonly { sql: string; params: Params }[])[] = [];

  /** A write as the commit sends it: prepared on a pipelining client, else its text. */
  function forCommit(sql: string, params: Params): Statement {
    const text = inlined(sql, params);
    if (text === undefined)
      throw new Error('a write kept for the commit takes text and number parameters only');
    return pipelines ? { sql: preparedForCommit(sql), params } : { sql: text, params: [] };
  }

  /** What must travel ahead of the next statement: the search_path, a BEGIN. */
  function preamble(begin: string | null): string[] {
    const ahead: string[] = [];
    if (begin !== null) ahead.push(begin);
    if (searchPathOf.get(client) !== searchPathSql) ahead.push(searchPathSql);
    return ahead;
  }

  async function send(config: {
    sql: Sql;
    params: Params;
    rowMode?: 'array' | undefined;
    ahead: string[];
  }): Promise<QueryResult> {
    const { sql, params, rowMode, ahead } = config;
    const started = performance.now();
    try {
      const array = rowMode ? { rowMode } : {};
      if (ahead.length > 0) {
        const text = inlined(textOf(sql), params);
        if (text !== undefined) {
          const result = lastOf(
            (await client.query(typed({ text: `${ahead.join('; ')}; ${text}`, ...array }))) as
              | QueryResult
              | QueryResult[],
          );
          searchPathOf.set(client, searchPathSql);
          return result;
        }
        await client.query(ahead.join('; '));
        searchPathOf.set(client, searchPathSql);
      }
      if (typeof sql === 'string')
        return await client.query(typed({ text: sql, values: [...params], ...array }));
      return await sendPrepared(sql, params, array);
    } catch (error) {
      state.failure = error;
      throw error;
    } finally {
      spentMs += performance.now() - started;
    }
  }

  /**
   * Statements sent at once on a pipelining client: the stream is corked while pg writes each
   * one's messages, so that all travel in one write (pg corks each statement's own messages).
   */
  async function pipelined(statements: readonly Statement[]): Promise<QueryResult[]> {
    const ahead = aheadOf(statements.map((s) => textOf(s.sql)));
    const stream = (client as unknown as { connection?: { stream?: Partial<Corkable> } }).connection?.stream;
    const started = performance.now();
    const sent: Promise<QueryResult>[] = [];
    stream?.cork?.();
    try {
      if (ahead.length > 0) sent.push(client.query(ahead.join('; ')));
      for (const { sql, params, rowMode } of statements) {
        const array = rowMode ? { rowMode } : {};
        sent.push(
          typeof sql === 'string'
            ? client.query(typed({ text: sql, values: [...params], ...array }))
            : sendPrepared(sql, params, array),
        );
      }
    } finally {
      stream?.uncork?.();
    }
    const settled = await Promise.allSettled(sent);
    spentMs += performance.now() - started;
    const failed = settled.find((result) => result.status === 'rejected');
    if (failed !== undefined) {
      state.failure = failed.reason;
      throw failed.reason;
    }
    if (ahead.length > 0) searchPathOf.set(client, searchPathSql);
    const results = settled.map((result) => (result as PromiseFulfilledResult<QueryResult>).value);
    return ahead.length > 0 ? results.slice(1) : results;
  }

  async function flushHeld(): Promise<void> {
    const write = held;
    if (write === undefined) return;
    held = undefined;
    const lock = write.sharedLock;
    if (lock !== undefined)
      await lockShared(
        conn,
        lock.accountId,
        lock.name,
        async (sql, params) => (await unchecked(sql, params)).rowCount ?? 0,
      );
    const result = await unchecked(write.sql, write.params);
    await write.check(result.rowCount ?? 0);
    for (const next of write.after ?? []) await unchecked(next.sql, next.params, next.rowMode);
  }

  async function statement(sql: Sql, params: Params, rowMode?: 'array'): Promise<QueryResult> {
    if (!state.open) throw new Error('transaction already finished');
    if (state.failure !== undefined) throw state.failure;
    await flushHeld();
    return unchecked(sql, params, rowMode);
  }

  /**
   * What must travel ahead of statements about to be sent. A plain read sent before the
   * transaction's first write or lock goes on its own: at READ COMMITTED it sees what it would see
   * as the transaction's first statement, and it stays a named prepared statement (the token read,
   * which would otherwise travel with the BEGIN as text, parsed and planned anew each time). A read
   * transaction's write (a token touch) begins a transaction, so that it is undone when the work
   * fails after it, as every write of a transaction is; so does a statement spanning accounts,
   * whose setting holds for its transaction only.
   */
  function aheadOf(texts: readonly string[]): string[] {
    const spans = texts.some(spansAccounts);
    const opens = spans || texts.some((text) => !readsOnly(text));
    const begin = begun || !opens ? null : writing ? 'BEGIN' : 'BEGIN ISOLATION LEVEL REPEATABLE READ';
    // Begun as soon as it is sent: a failure after BEGIN still needs the ROLLBACK.
    if (begin !== null) begun = true;
    const ahead = preamble(begin);
    if (spans) ahead.push(spanningAllowed);
    return ahead;
  }

  /** A statement, with what must travel ahead of it. */
  function unchecked(sql: Sql, params: Params, rowMode?: 'array'): Promise<QueryResult> {
    return send({ sql, params, rowMode, ahead: aheadOf([textOf(sql)]) });
  }

  const pipelines = (client as { pipeline?: boolean }).pipeline === true;
  const conn: TransactionConn = {
    writing,
    pipelines,
    distributed: options.bindsAccounts ?? false,
    rerun: options.rerun ?? false,
    memo: new TransactionMemo(),
    routes: options.routes,
    busyMs: () => spentMs,
    async run(sql, params = []) {
      return (await statement(sql, params)).rowCount ?? 0;
    },
    async row<T extends QueryResultRow>(sql: Sql, params: Params = []) {
      return (await statement(sql, params)).rows[0] as T | undefined;
    },
    async rows<T extends QueryResultRow>(sql: Sql, params: Params = []) {
      return (await statement(sql, params)).rows as T[];
    },
    async value<T>(sql: Sql, params: Params = []) {
      const result = await statement(sql, params, 'array');
      return (result.rows[0] as unknown[] | undefined)?.[0] as T | undefined;
    },
    async values<T>(sql: Sql, params: Params = []) {
      const result = await statement(sql, params, 'array');
      return (result.rows as unknown[][]).map((row) => row[0] as T);
    },
    async consistent() {
      if (writing || begun) return;
      if (!state.open) throw new Error('transaction already finished');
      begun = true;
      // Like BEGIN and COMMIT, not counted in busyMs: the transaction's frame, not its work.
      try {
        await client.query(preamble('BEGIN ISOLATION LEVEL REPEATABLE READ').join('; '));
        searchPathOf.set(client, searchPathSql);
      } catch (error) {
        state.failure = error;
        throw error;
      }
    },
    async batch(statements) {
      if (!state.open) throw new Error('transaction already finished');
      if (state.failure !== undefined) throw state.failure;
      await flushHeld();
      if (pipelines) return pipelined(statements);
      const results: QueryResult[] = [];
      for (const { sql, params, rowMode } of statements) results.push(await unchecked(sql, params, rowMode));
      return results;
    },
    hold(write) {
      if (!writing) throw new Error('only a write transaction holds writes back');
      if (held !== undefined) throw new Error('a write is held back already');
      held = write;
    },
    takeHeld() {
      const write = held;
      held = undefined;
      return write;
    },
    atCommit(sql, params, atCommitOptions) {
      const kept = atCommitOptions?.last ? atCommitLast : atCommit;
      const statement = forCommit(sql, params);
      kept.push(statement);
      return () => {
        const at = kept.indexOf(statement);
        if (at >= 0) kept.splice(at, 1);
      };
    },
    atCommitFrom(reads, writes) {
      atCommitReads.push({ reads, writes });
    },
    atCommitMade(make) {
      atCommitMakers.push(make);
    },
    deadlocked(message) {
      const error = Object.assign(new Error(message), { code: '40P01' });
      state.failure ??= error;
      return error;
    },
    async commit() {
      if (state.failure !== undefined) throw state.failure;
      // A held write that can fail the COMMIT goes with it, ahead of the writes kept for it.
      const write = held;
      if (write?.atCommitSql !== undefined && write.sharedLock === undefined) {
        const withCommit = pipelines
          ? { sql: preparedForCommit(write.atCommitSql), params: write.params }
          : { sql: inlined(write.atCommitSql, write.params), params: [] };
        const after = (write.after ?? []).map((next) =>
          pipelines ? next : { sql: inlined(textOf(next.sql), next.params), params: [] },
        );
        if (withCommit.sql !== undefined && after.every((next) => next.sql !== undefined)) {
          held = undefined;
          atCommit.unshift(withCommit as Statement, ...(after as Statement[]));
        }
      }
      // The held write may need to name the rule it broke: a statement of this transaction still.
      state.open = true;
      try {
        await flushHeld();
      } finally {
        state.open = false;
      }
      const made = atCommitMakers.splice(0).flatMap((make) => make().map((w) => forCommit(w.sql, w.params)));
      let writes = [...made, ...atCommit, ...atCommitLast];
      if (atCommitReads.length > 0) {
        // The writes kept for the commit and the reads after them, then what those reads make.
        const derived = atCommitReads.splice(0);
        const reads = derived.flatMap((d) => d.reads);
        state.open = true;
        let results: QueryResult[];
        try {
          results = await conn.batch([...writes, ...reads]);
        } finally {
          state.open = false;
        }
        let at = writes.length;
        writes = [];
        for (const d of derived) {
          const made = d.writes(results.slice(at, at + d.reads.length));
          at += d.reads.length;
          for (const w of made) {
            if (pipelines) {
              writes.push({ sql: preparedForCommit(textOf(w.sql)), params: w.params });
              continue;
            }
            const text = inlined(textOf(w.sql), w.params);
            if (text === undefined)
              throw new Error('a write made at the commit takes text and number parameters only');
            writes.push({ sql: text, params: [] });
          }
        }
      }
      if (!begun && writes.length === 0) return;
      if (pipelines) {
        // Prepared, in one round trip: a failed write fails its call, and makes the COMMIT a ROLLBACK.
        await pipelined([...writes, { sql: 'COMMIT', params: [] }]);
        return;
      }
      await client.query(
        [...(begun ? [] : ['BEGIN']), ...writes.map((w) => textOf(w.sql)), 'COMMIT'].join('; '),
      );
    },
    async rollback() {
      searchPathOf.delete(client);
      if (begun) await client.query('ROLLBACK');
    },
  };
  return conn;
}
