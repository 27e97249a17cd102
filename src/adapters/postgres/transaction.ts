import type { Pool, PoolClient } from 'pg';
import { type StorageTx, TransientConflict } from '../../core/storage.js';
import { type Conn, type TransactionState, transactionConn } from './connection.js';
import { isRetryable } from './errors.js';

export type TransactionMode = 'read' | 'write';

export interface TransactionRunnerOptions {
  pool: Pool;
  /** `SET LOCAL search_path …`, run with BEGIN in the same round trip. */
  searchPathSql: string;
  /** How many times one transaction may run before TransientConflict; at least 1. */
  maxAttempts: number;
  /** Builds the stores of one transaction; `appended` hears each account that got an event. */
  makeTx(conn: Conn, appended: (accountId: string) => void): StorageTx;
  /** Told, after a commit, the accounts the transaction appended events to. */
  committed(client: PoolClient, accounts: ReadonlySet<string>): Promise<void>;
  random?: () => number;
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
 */
export function transactionRunner(options: TransactionRunnerOptions) {
  const random = options.random ?? Math.random;
  const begin = {
    write: `BEGIN ISOLATION LEVEL SERIALIZABLE; ${options.searchPathSql}`,
    read: `BEGIN ISOLATION LEVEL REPEATABLE READ; ${options.searchPathSql}`,
  };

  async function attempt<T>(fn: (tx: StorageTx) => Promise<T>, mode: TransactionMode): Promise<T> {
    const client = await options.pool.connect();
    const state: TransactionState = { open: false, failure: undefined };
    const accounts = new Set<string>();
    let broken: Error | undefined;
    try {
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
      await client.query('ROLLBACK').catch((rollbackError: unknown) => {
        broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
      });
      throw error;
    } finally {
      // A client whose rollback failed is in an unknown state: destroy it rather than reuse it.
      client.release(broken);
    }
  }

  return {
    async run<T>(fn: (tx: StorageTx) => Promise<T>, mode: TransactionMode): Promise<T> {
      for (let run = 1; ; run++) {
        try {
          return await attempt(fn, mode);
        } catch (error) {
          if (!isRetryable(error)) throw error;
          if (run >= options.maxAttempts) throw new TransientConflict(run, { cause: error });
          // Full jitter over a window that doubles each time (2 ms, 4 ms, … at most 100 ms), so
          // transactions that collided do not collide again in lockstep.
          const windowMs = Math.min(100, 2 ** run);
          await new Promise((resolve) => setTimeout(resolve, random() * windowMs));
        }
      }
    },
  };
}
