import type Database from 'better-sqlite3';
import { isBusy } from './errors.js';

/** Runs one transaction's work on the connection; `open` says whether it may still use it. */
export type TransactionWork<T> = (isOpen: () => boolean) => Promise<T>;

export type TransactionMode = 'read' | 'write';

interface Job {
  mode: TransactionMode;
  work: TransactionWork<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** How many write transactions one COMMIT may carry: bounds the wait of the first of them. */
const maxGroupSize = 32;

/**
 * Runs transactions on one connection one at a time, in arrival order, so that two never
 * interleave across an `await` (better-sqlite3's own `transaction()` would commit at the first
 * `await`).
 *
 * Write transactions that queue up behind each other share one COMMIT (group commit): each runs
 * inside its own SAVEPOINT of one BEGIN IMMEDIATE … COMMIT, a failed one is rolled back to its
 * savepoint and rejected at once, and the others are answered only after the COMMIT succeeds.
 * A COMMIT writes the WAL whatever it carries, so under load this multiplies write throughput,
 * while every caller still hears "done" only for work that is committed.
 *
 * `beforeCommit` runs inside the transaction right before each COMMIT (the batched search
 * index writes); when it fails, the transaction is rolled back as a failed COMMIT would be.
 */
export function transactionQueue(db: Database.Database, beforeCommit: () => void = () => {}) {
  const statements = {
    begin: { read: db.prepare('BEGIN'), write: db.prepare('BEGIN IMMEDIATE') },
    commit: db.prepare('COMMIT'),
    rollback: db.prepare('ROLLBACK'),
    savepoint: db.prepare('SAVEPOINT work'),
    release: db.prepare('RELEASE work'),
    rollbackToSavepoint: db.prepare('ROLLBACK TO work'),
  };
  const jobs: Job[] = [];
  let pumping: Promise<void> | null = null;

  /** Runs `work` in a transaction of its own: a read one, retried once as a write if it must. */
  async function runAlone(job: Job): Promise<void> {
    try {
      job.resolve(await attempt(job.work, job.mode));
    } catch (error) {
      // A read transaction that writes (a token touch) cannot upgrade its lock when another
      // process wrote since it began; run it again holding the write lock from the start.
      if (job.mode === 'read' && isBusy(error)) {
        try {
          job.resolve(await attempt(job.work, 'write'));
        } catch (retryError) {
          job.reject(retryError);
        }
        return;
      }
      job.reject(error);
    }
  }

  async function attempt(work: TransactionWork<unknown>, mode: TransactionMode): Promise<unknown> {
    statements.begin[mode].run();
    let open = true;
    try {
      const result = await work(() => open);
      open = false;
      // A read transaction notes no rows for the search index (its one write, a token's
      // lastUsedAt, is of an unsearched table): no need to look for any.
      if (mode === 'write') beforeCommit();
      statements.commit.run();
      return result;
    } catch (error) {
      open = false;
      if (db.inTransaction) statements.rollback.run();
      throw error;
    }
  }

  /** The next job to join a write group of `size` jobs, if one is queued and there is room. */
  const nextOfGroup = (size: number): Job | undefined =>
    size + 1 < maxGroupSize && jobs[0]?.mode === 'write' ? jobs.shift() : undefined;

  /** Runs the write jobs at the head of the queue under one COMMIT. */
  async function runWriteGroup(): Promise<void> {
    const first = jobs.shift() as Job;
    try {
      statements.begin.write.run();
    } catch (error) {
      first.reject(error);
      return;
    }
    const done: { job: Job; value: unknown }[] = [];
    let job: Job | undefined = first;
    let waited = false;
    while (job) {
      let open = true;
      let inSavepoint = false;
      try {
        statements.savepoint.run();
        inSavepoint = true;
        const value = await job.work(() => open);
        open = false;
        statements.release.run();
        done.push({ job, value });
      } catch (error) {
        open = false;
        job.reject(error);
        if (!inSavepoint || !db.inTransaction || !undoSavepoint()) {
          // The transaction is gone (SQLite gave it up on an I/O error or a full disk) or cannot
          // be trusted: the group's earlier work goes with it, and no later job may join it.
          abandon(done, error);
          return;
        }
      }
      job = nextOfGroup(done.length);
      if (!job && done.length < maxGroupSize && !waited) {
        // Let the requests that arrived meanwhile reach the queue (they wait for I/O callbacks,
        // which run before setImmediate's), so that they can share this COMMIT.
        waited = true;
        await new Promise((resolve) => setImmediate(resolve));
        job = nextOfGroup(done.length);
      }
    }
    try {
      beforeCommit();
      statements.commit.run();
    } catch (error) {
      abandon(done, error);
      return;
    }
    for (const { job, value } of done) job.resolve(value);
  }

  /** Rolls the failed job's writes back to its savepoint; false when even that fails. */
  function undoSavepoint(): boolean {
    try {
      statements.rollbackToSavepoint.run();
      statements.release.run();
      return true;
    } catch {
      return false;
    }
  }

  /** Rolls the whole group back and tells each of its finished jobs why. */
  function abandon(done: readonly { job: Job }[], error: unknown): void {
    try {
      if (db.inTransaction) statements.rollback.run();
    } catch {
      // Nothing more can be undone; the callers below still hear of the failure.
    }
    for (const { job } of done) job.reject(error);
  }

  async function pump(): Promise<void> {
    while (jobs.length > 0) {
      if (jobs[0]?.mode === 'write') await runWriteGroup();
      else await runAlone(jobs.shift() as Job);
    }
    pumping = null;
  }

  return {
    run<T>(work: TransactionWork<T>, mode: TransactionMode): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        jobs.push({ mode, work, resolve: resolve as (value: unknown) => void, reject });
        pumping ??= pump();
      });
    },
    /** Settles when every transaction queued so far has finished. */
    async drained(): Promise<void> {
      while (pumping) await pumping;
    },
  };
}
