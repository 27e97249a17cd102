import type { Pool, PoolClient } from 'pg';
import { type StorageTx, TransientConflict } from '../../core/storage.js';
import { type Conn, type TransactionState, transactionConn } from './connection.js';
import { isRetryable } from './errors.js';

export type TransactionMode = 'read' | 'write';

export interface TransactionRunnerOptions {
  pool: Pool;
  /** `SET LOCAL search_path …`, run with BEGIN in the same round trip. */
  searchPathSql: string;
  /** The schema: writers take turns per schema, so deployments sharing a database do not queue behind each other. */
  schema: string;
  /** How many times one transaction may run before TransientConflict; at least 1. */
  maxAttempts: number;
  /** Builds the stores of one transaction; `appended` hears each account that got an event. */
  makeTx(conn: Conn, appended: (accountId: string) => void): StorageTx;
  /** Told, after a commit, the accounts the transaction appended events to. */
  committed(client: PoolClient, accounts: ReadonlySet<string>): Promise<void>;
  random?: () => number;
  /** How long after a collision write transactions take turns from their first run (ms). */
  contendedForMs?: number;
}

/**
 * The writers' turn: a session-level advisory lock per schema, in a key space of the adapter's
 * own (see signals.ts, migrate.ts and purge-lock.ts for the others), taken before BEGIN.
 */
const takeTurnSql = 'SELECT pg_advisory_lock(1869574506, hashtext($1))';
const giveTurnSql = 'SELECT pg_advisory_unlock(1869574506, hashtext($1))';

/**
 * A first-come, first-served queue of one: `take()` resolves, in call order, with the function
 * that lets the next caller in.
 */
function queueOfOne() {
  let last: Promise<void> = Promise.resolve();
  return {
    take(): Promise<() => void> {
      let leave: () => void = () => {};
      const left = new Promise<void>((resolve) => {
        leave = resolve;
      });
      const turn = last.then(() => leave);
      last = left;
      return turn;
    },
  };
}

/**
 * Isolation: write transactions run SERIALIZABLE, so a transaction that reads a row and writes
 * based on it behaves as if it had run alone, across every process on the database; read
 * transactions run REPEATABLE READ (one consistent snapshot; a token touch may still write).
 * PostgreSQL resolves a race between two of them by failing one (serialization failure, or
 * deadlock); such a transaction had no effect, so it is run again from the start, after a
 * short random pause that grows with each attempt, up to `maxAttempts` runs in all; after that
 * the caller gets TransientConflict. Because `fn` may run more than once, it must have no
 * effect outside the transaction (the core does outside work before or after it).
 *
 * Writers that collide take turns. Waiting for a lock inside a SERIALIZABLE transaction cannot
 * help (its snapshot predates the wait, so it still conflicts), but a lock taken before BEGIN
 * can: the snapshot then starts after the previous holder committed. So a write transaction run
 * again after a collision first takes the writers' turn, a session-level advisory lock, on its
 * pooled connection, and gives it back once it has ended. For a while after any collision
 * (`contendedForMs`), every write transaction of this process takes the turn from its first run,
 * so a sustained load of writes to one project queues instead of colliding over and over:
 * under contention PostgreSQL writes go one at a time, as SQLite's do, and reads stay parallel.
 * Within a process the writers queue for the turn before they take a connection, so a queue of
 * writers never holds the pool that reads need.
 */
export function transactionRunner(options: TransactionRunnerOptions) {
  const random = options.random ?? Math.random;
  const contendedForMs = options.contendedForMs ?? 1000;
  const begin = {
    write: `BEGIN ISOLATION LEVEL SERIALIZABLE; ${options.searchPathSql}`,
    read: `BEGIN ISOLATION LEVEL REPEATABLE READ; ${options.searchPathSql}`,
  };

  let contendedUntil = 0;
  // This process's writers wait for the turn here first, holding no connection, so that at most
  // one of them holds a pooled connection while it waits for the turn across processes: the
  // rest of the pool stays free for reads, and for writes that need no turn.
  const turnInProcess = queueOfOne();

  async function attempt<T>(
    fn: (tx: StorageTx) => Promise<T>,
    mode: TransactionMode,
    takeTurn: boolean,
  ): Promise<T> {
    const leaveTurn = takeTurn ? await turnInProcess.take() : undefined;
    try {
      return await attemptOnConnection(fn, mode, takeTurn);
    } finally {
      leaveTurn?.();
    }
  }

  async function attemptOnConnection<T>(
    fn: (tx: StorageTx) => Promise<T>,
    mode: TransactionMode,
    takeTurn: boolean,
  ): Promise<T> {
    const client = await options.pool.connect();
    const state: TransactionState = { open: false, failure: undefined };
    const accounts = new Set<string>();
    let broken: Error | undefined;
    let holdsTurn = false;
    const markBroken = (error: unknown) => {
      broken ??= error instanceof Error ? error : new Error(String(error));
    };
    try {
      if (takeTurn) {
        await client.query(takeTurnSql, [options.schema]);
        holdsTurn = true;
      }
      await client.query(begin[mode]);
      state.open = true;
      let result: T;
      try {
        result = await fn(options.makeTx(transactionConn(client, state), (id) => accounts.add(id)));
      } catch (error) {
        // A statement's failure (a lost race) is what counts, whatever fn made of it.
        throw state.failure !== undefined && isRetryable(state.failure) ? state.failure : error;
      } finally {
        state.open = false;
      }
      // PostgreSQL answers COMMIT of a transaction a failed statement aborted with ROLLBACK, and
      // no error: fn may have caught the failure, but nothing of it was committed.
      if (state.failure !== undefined) throw state.failure;
      await client.query('COMMIT');
      // Committed: from here on nothing may fail the transaction (a wake-up is only a hint).
      if (accounts.size > 0) await options.committed(client, accounts).catch(() => {});
      return result;
    } catch (error) {
      // Harmless when the transaction already ended (a failed COMMIT): PostgreSQL only warns.
      await client.query('ROLLBACK').catch(markBroken);
      throw error;
    } finally {
      // A session lock must not stay with a pooled connection: a connection that cannot give
      // the turn back is destroyed (which ends its session, and the lock with it).
      if (holdsTurn) await client.query(giveTurnSql, [options.schema]).catch(markBroken);
      // A client whose rollback failed is in an unknown state: destroy it rather than reuse it.
      client.release(broken);
    }
  }

  return {
    async run<T>(fn: (tx: StorageTx) => Promise<T>, mode: TransactionMode): Promise<T> {
      for (let run = 1; ; run++) {
        const takeTurn = mode === 'write' && (run > 1 || Date.now() < contendedUntil);
        try {
          return await attempt(fn, mode, takeTurn);
        } catch (error) {
          if (!isRetryable(error)) throw error;
          if (mode === 'write') contendedUntil = Date.now() + contendedForMs;
          if (run >= options.maxAttempts) throw new TransientConflict(run, { cause: error });
          // A writer's next run waits for its turn instead. Reads back off with full jitter over
          // a window that doubles each time (2 ms, 4 ms, … at most 100 ms), so transactions
          // that collided do not collide again in lockstep.
          if (mode === 'write') continue;
          const windowMs = Math.min(100, 2 ** run);
          await new Promise((resolve) => setTimeout(resolve, random() * windowMs));
        }
      }
    },
  };
}
