import type { Pool } from 'pg';
import {
  type StorageTx,
  StorageUnavailable,
  type TransactionOptions,
  TransientConflict,
} from '../../core/port/index.js';
import type { AccountRoutes } from './account-routes.js';
import { type Conn, type TransactionState, transactionConn } from './connection.js';
import { isRetryable, isUnavailable } from './errors.js';

export type TransactionMode = 'read' | 'write';

/** What the stores of one transaction tell it, for the notification sent after its commit. */
export interface TxObserver {
  /** An event was appended to the account. */
  appended(accountId: string): void;
  /** A webhook delivery of the account was queued (inserted, or made due). */
  queued(accountId: string): void;
}

export interface TransactionRunnerOptions {
  pool: Pool;
  /** `SET search_path …`: sent once per pooled connection, with its first statement. */
  searchPathSql: string;
  /** The storage's workspace → account cache, given to every transaction. */
  routes: AccountRoutes;
  /** Whether the schema is distributed (Citus): statements are then bound to their account (account-bound.ts). */
  distributed?: () => boolean;
  /** How many times one transaction may run before TransientConflict; at least 1. */
  maxAttempts: number;
  /** Builds the stores of one transaction; `observer` hears what it appended and queued. */
  makeTx(conn: Conn, observer: TxObserver): StorageTx;
  /**
   * Told, after a commit, the accounts the transaction appended events to, each with whether it
   * queued webhook deliveries for it (never awaited).
   */
  committed(accounts: ReadonlyMap<string, boolean>): void;
  /** Told each time a transaction is run again (a deadlock). */
  reran?: () => void;
  random?: () => number;
}

/*
 * Isolation and locks: the lock audit.
 *
 * Write transactions run READ COMMITTED: each statement sees what committed before it began, and
 * no transaction fails because another one read what it wrote. So nothing leans on SERIALIZABLE:
 * every rule that needs two transactions to queue takes an explicit lock on the data it is
 * about, or is one statement, and transactions of different projects, accounts and rows never
 * wait for each other (there is no wider lock: no per-schema writers' turn).
 *
 * | Rule | Lock (or single statement) | Race test (test/postgres/lock-audit.test.ts) |
 * |------|----------------------------|-----------------------------------------------|
 * | Issue numbers per project run 1, 2, 3… without a gap | `counters` upsert `… RETURNING value`: the counter row's lock queues the creates of that project only (records.ts) | 50 creates × 6 workspaces over 3 storages (test/postgres/write-path.test.ts) |
 * | Same-key creates: one creates, the others replay or get 409 | the key is claimed first, `INSERT … ON CONFLICT DO NOTHING RETURNING` on the key's unique index: a second request waits there until the first ends, then reads its answer (records.ts); a create told its key ahead claims it in the grant's round trip, by the token's hash, and gives it back at the commit when the request never judged it (idempotency-claims.ts, tenancy.ts) | "same-key creates"; test/postgres/write-hints.test.ts |
 * | An outcome is not deleted while an issue, decision or time entry is created against it (never both) | a reference read in a write transaction (`Collection.get`, or the row a create was told it reads first, read in the grant's round trip: tenancy.ts) takes `FOR KEY SHARE`; counting the rows that refer to a row (`count`/`deleteWhere` on projectId, outcomeId, issueId) first takes `FOR UPDATE` on that row, in a statement of its own, so the count sees every referrer committed before the lock (collections.ts) | "never both delete an outcome and create …", "never both delete a project and create an issue in it" |
 * | A row read and then written by one transaction is not changed between (read-modify-write) | `Collection.update` is one conditional UPDATE; when it finds another version than the one this transaction read, the transaction lost a race and runs again, and a run again locks the rows it reads `FOR NO KEY UPDATE` so that it queues (collections.ts) | conformance: "loses no update when 50 concurrent transactions read a row…" |
 * | Totals counted in a write transaction include every insert committed before, none after | a predicate lock per table and workspace, a row of the account's `tenant_locks` (no advisory lock: it would hold on one node only): inserts hold it FOR SHARE, counts and lists of a write transaction FOR UPDATE (collections.ts, tenant-locks.ts) | conformance: list totals, "concurrent" |
 * | The last admin is never demoted or removed (never zero admins) | counting the members of a role in a write transaction first takes `FOR UPDATE` on the workspace row: role changes that count queue per workspace (tenancy.ts) | "removing or demoting the last admin from two sessions" |
 * | A retry of a delivery never races a dispatcher's claim into a second send | `DeliveryStore.get` in a write transaction takes `FOR NO KEY UPDATE`: the claim's `FOR UPDATE SKIP LOCKED` passes the row over, or the retry waits for the claim and sees the lease (webhooks.ts) | "a retry racing a dispatcher's claim" |
 * | A secret rotation and a delivery's result recorded on the subscription never lose either (no VersionMismatch from a lost race) | `WebhookStore.get` in a write transaction takes `FOR NO KEY UPDATE` (webhooks.ts) | "webhook secret rotation racing a delivery" |
 * | If-Match: of concurrent updates expecting one version, exactly one succeeds | one statement, `UPDATE … WHERE id = $1 AND version = $n` (READ COMMITTED re-checks the WHERE on the row's newest version after waiting for its lock) | "If-Match races" |
 * | No request is authenticated after the revoke of its token commits | one statement: the token, its membership and workspace read together (`grantOf`), which sees every commit before it began; a GET by id reads its row in that statement too (`readsFirst`), so no row is answered to a token revoked before it was read | "a token revoked while it is used" |
 * | Signals read by sequence never skip one that commits later | the account's row: an append takes its sequence with `UPDATE accounts SET last_sequence = last_sequence + 1 WHERE id = $n RETURNING last_sequence`, whose row lock is held to the end of the transaction (signals.ts; a create takes it in its issue number's statement, records.ts, and inserts the signal with the COMMIT) | "never let a reader … skip" (concurrency.test.ts); the 50 × 6 × 3 test and "creates spread over projects" (write-path.test.ts) |
 * | A delivery is claimed by one dispatcher at a time | `FOR UPDATE SKIP LOCKED` inside one account at a time, the accounts read from `due_accounts` (webhooks.ts) | concurrency.test.ts |
 * | An account with a claimable delivery keeps a `due_accounts` time no later than its earliest (the dispatcher finds it) | inserts and reschedules lower the time with the COMMIT (`LEAST`, on the row's lock); a claim or a result that makes it later first locks the accounts' rows (an upsert, which makes a missing one) in a statement of its own, in account order and after every delivery row, then reads the earliest (so a lowering transaction has committed, or waits and lowers again after) (webhooks.ts) | "a delivery queued while claims refresh its account" (test/postgres/due-accounts.test.ts) |
 * | Concurrent comments on one issue, outcome or decision all succeed; its commentCount is exact | the read-modify-write rule above: the count is the commented row's next version, and a comment that lost the race runs again reading that row `FOR NO KEY UPDATE`, queueing behind the others (collections.ts) | test/properties/concurrent-threads.test.ts: "20 concurrent comments on one issue" |
 * | A relation is stored once (from either end); `blocks` and parent relations never close a cycle; an issue has one parent; blockedBy, subIssues, parentId exact | the workspace's relation graph is locked before it is read: a write transaction's first look at `issue_relations` (`findOne`, the existence check) takes its predicate lock exclusive, so relation creates of one workspace queue, each seeing those committed before it; counts follow the read-modify-write rule (collections.ts) | concurrent-threads.test.ts: "close a cycle", "one parent", "identical relations", "20 concurrent blocks relations" |
 *
 * A lock that two transactions take in opposite orders can deadlock (PostgreSQL then fails one
 * with 40P01: two deletes of one row each holding `FOR KEY SHARE`, two claims reading two
 * subscriptions in opposite orders); a transaction that lost a read-modify-write race, or that
 * inserted and then counts while another does the same, fails itself alike (Conn.deadlocked).
 * Such a transaction had no effect: it is run again from the
 * start, after a short random pause that grows with each attempt, up to `maxAttempts` runs in
 * all; after that the caller gets TransientConflict (HTTP: 503 transient_conflict with
 * Retry-After). Because `fn` may run more than once, it must have no effect outside the
 * transaction (the core does outside work before or after it).
 *
 * Read transactions send their statements on their own (autocommit): a GET by id is one round
 * trip and no BEGIN, the row it reads first (`readsFirst`) read in the token grant's statement
 * (tenancy.ts), so both are of one snapshot. A store whose answer takes more than one
 * statement (a page and its total, a copy) asks for one snapshot first (REPEATABLE READ).
 */
export function transactionRunner(options: TransactionRunnerOptions) {
  const random = options.random ?? Math.random;

  async function attempt<T>(
    fn: (tx: StorageTx) => Promise<T>,
    mode: TransactionMode,
    run: number,
    hints: TransactionOptions | undefined,
  ): Promise<T> {
    const client = await options.pool.connect();
    // The pool listens for a connection's errors only while it is idle: one lost while this
    // transaction holds it (the server gone, a proxy's restart) would otherwise be an uncaught
    // 'error' event, ending the process. The statement in flight fails with it anyway; the
    // client is destroyed on release rather than reused.
    let lost: Error | undefined;
    const onLost = (error: Error) => {
      lost ??= error;
    };
    client.on('error', onLost);
    const state: TransactionState = { open: false, failure: undefined };
    // Account → whether the transaction queued deliveries for it.
    const accounts = new Map<string, boolean>();
    const observer: TxObserver = {
      appended: (id) => {
        if (!accounts.has(id)) accounts.set(id, false);
      },
      queued: (id) => {
        accounts.set(id, true);
      },
    };
    const conn = transactionConn(client, state, {
      writing: mode === 'write',
      searchPathSql: options.searchPathSql,
      routes: options.routes,
      rerun: run > 1,
      bindsAccounts: options.distributed?.() ?? false,
    });
    // Read (and claimed) with the token's grant, in its round trip (tenancy.ts); a run again
    // locks what it reads otherwise, and goes without.
    if (hints?.readsFirst && (mode === 'read' || run === 1)) conn.memo.readsFirst = hints.readsFirst;
    if (hints?.claimsKey !== undefined && mode === 'write' && run === 1)
      conn.memo.claimsKey = hints.claimsKey;
    let broken: Error | undefined;
    const markBroken = (error: unknown) => {
      broken ??= error instanceof Error ? error : new Error(String(error));
    };
    try {
      state.open = true;
      let result: T;
      try {
        result = await fn(options.makeTx(conn, observer));
      } catch (error) {
        // A statement's failure (a lost race) is what counts, whatever fn made of it.
        throw state.failure !== undefined && (isRetryable(state.failure) || isUnavailable(state.failure))
          ? state.failure
          : error;
      } finally {
        state.open = false;
      }
      // PostgreSQL answers COMMIT of a transaction a failed statement aborted with ROLLBACK, and
      // no error: fn may have caught the failure, but nothing of it was committed.
      if (state.failure !== undefined) throw state.failure;
      await conn.commit();
      // Committed: from here on nothing may fail the transaction (a wake-up is only a hint).
      if (accounts.size > 0) options.committed(accounts);
      return result;
    } catch (error) {
      // Harmless when the transaction already ended (a failed COMMIT): PostgreSQL only warns.
      await conn.rollback().catch(markBroken);
      throw error;
    } finally {
      // A client whose rollback failed is in an unknown state: destroy it rather than reuse it.
      client.off('error', onLost);
      client.release(broken ?? lost);
    }
  }

  return {
    async run<T>(
      fn: (tx: StorageTx) => Promise<T>,
      mode: TransactionMode,
      hints?: TransactionOptions,
    ): Promise<T> {
      for (let run = 1; ; run++) {
        try {
          return await attempt(fn, mode, run, hints);
        } catch (error) {
          // The database, or the Citus worker holding the account's rows, does not answer:
          // StorageUnavailable (HTTP: 503 with Retry-After), not run again here (it stays away
          // for longer than a request should wait).
          if (isUnavailable(error)) throw new StorageUnavailable({ cause: error });
          if (!isRetryable(error)) throw error;
          if (run >= options.maxAttempts) throw new TransientConflict(run, { cause: error });
          options.reran?.();
          // Full jitter over a window that doubles each time (2 ms, 4 ms, … at most 100 ms), so
          // transactions that deadlocked do not meet again in lockstep.
          const windowMs = Math.min(100, 2 ** run);
          await new Promise((resolve) => setTimeout(resolve, random() * windowMs));
        }
      }
    },
  };
}
