import type Database from 'better-sqlite3';
import { GroupWorkFailed, isBusy } from './errors.js';
import type { TransactionAccess } from './types.js';

/** Runs one transaction's work on the connection, within what `access` allows. */
export type TransactionWork<T> = (access: TransactionAccess) => Promise<T>;

export type TransactionMode = 'read' | 'write';

interface Job {
  mode: TransactionMode;
  work: TransactionWork<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
  /**
   * Run it in a savepoint of its own: it is being run again because a member of its first
   * group failed after writing (see runWriteGroup).
   */
  isolated?: boolean;
}

/**
 * A write tried in a shared read transaction. It is refused before it runs, so the work has
 * written nothing; the queue runs the work again, alone and as a write.
 */
class WriteInSharedRead extends Error {
  constructor() {
    super('a write in a shared read transaction (the queue runs the work again as a write)');
  }
}

/** Access for work that may write while it is open; `changed` counts the rows it changed. */
function writeAccess(): WriteAccess {
  return new WriteAccess();
}

/** writeAccess's access: a class, not closures made for every transaction. */
class WriteAccess implements TransactionAccess {
  changed = 0;
  private open = true;

  isOpen(): boolean {
    return this.open;
  }

  beforeWrite(): void {}

  wrote(changes: number): void {
    this.changed += changes;
  }

  close(): void {
    this.open = false;
  }
}

/** Access for work in a shared read transaction: it notes, and refuses, any write. */
function sharedReadAccess(): TransactionAccess & { close(): void; wanted: boolean } {
  let open = true;
  const access = {
    wanted: false,
    isOpen: () => open,
    beforeWrite: () => {
      access.wanted = true;
      throw new WriteInSharedRead();
    },
    wrote: () => {},
    close: () => {
      open = false;
    },
  };
  return access;
}

/** What a caller hears: the failure itself, not the wrapper that routed it. */
const reason = (error: unknown) => (error instanceof GroupWorkFailed ? error.cause : error);

/** What the storage does at the edges of the queue's transactions. */
export interface QueueHooks {
  /**
   * Runs inside the transaction right before each COMMIT (the bookkeeping and the batched search
   * index writes); when it fails, the transaction is rolled back as a failed COMMIT would be.
   */
  beforeCommit?: () => void;
  /**
   * Runs inside a member's savepoint right before its RELEASE (the member's bookkeeping); when
   * it fails, the member fails and its savepoint is rolled back.
   */
  beforeRelease?: () => void;
  /** Runs after a ROLLBACK, or a ROLLBACK TO a member's savepoint (or an attempt at one). */
  afterRollback?: () => void;
  /** Runs right after each BEGIN, read or write: a new transaction, which may see others' commits. */
  afterBegin?: () => void;
  /**
   * Runs before each write group, with no transaction open; a promise it returns holds the queue
   * until it settles (the checkpoint thread copying the log's last frames), and a failure of it
   * is ignored: it only ever delays.
   */
  beforeWriteGroup?: () => Promise<void> | undefined;
}

/**
 * How many transactions one group may carry: bounds the wait of the first of them (a create's
 * work is about 0.1 ms, so at most about 7 ms). A COMMIT writes each page its group changed once,
 * and the pages every create changes (the ends of the indexes, the totals) are most of a create's
 * writes: fifty creates at once cost each about a tenth less CPU in one group of fifty than in
 * groups of thirty-one (the bound was 32).
 */
const maxGroupSize = 64;

/**
 * How many event-loop turns a write group may wait for more transactions to join it (a turn that
 * brings none ends the group at once, so an idle server waits for nothing). Over HTTP, requests
 * arrive spread over turns as their sockets are read: fifty clients creating at once made groups
 * of 44 on average with 4 turns and 47 with 8 (16 made no more), each create about 3 % cheaper.
 */
const maxWaitsForGroup = 8;

/**
 * Runs transactions on one connection one at a time, in arrival order, so that two never
 * interleave across an `await` (better-sqlite3's own `transaction()` would commit at the first
 * `await`).
 *
 * Write transactions that queue up behind each other share one COMMIT (group commit): they run
 * one after another in one BEGIN IMMEDIATE … COMMIT, and each is answered only after the COMMIT
 * succeeds. A COMMIT writes the WAL whatever it carries, so under load this multiplies write
 * throughput, while every caller still hears "done" only for work that is committed. One that
 * fails having changed nothing is rejected at once and the group goes on; one that fails after
 * changing rows takes the group back (see runWriteGroup). Read transactions queued together
 * share one snapshot in the same way (see runReadGroup).
 *
 * The hooks let the storage finish a transaction's writes (see QueueHooks).
 */
export function transactionQueue(db: Database.Database, hooks: QueueHooks = {}) {
  const {
    beforeCommit = () => {},
    beforeRelease = () => {},
    afterRollback = () => {},
    afterBegin = () => {},
    beforeWriteGroup = () => undefined,
  } = hooks;
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

  /** Runs `work` in a write transaction of its own. */
  async function runAlone(job: Job): Promise<void> {
    const access = writeAccess();
    try {
      statements.begin.write.run();
    } catch (error) {
      job.reject(error);
      return;
    }
    afterBegin();
    try {
      const result = await job.work(access);
      access.close();
      beforeCommit();
      statements.commit.run();
      job.resolve(result);
    } catch (error) {
      access.close();
      try {
        if (db.inTransaction) statements.rollback.run();
      } catch {
        // Nothing more can be undone; the caller still hears of the failure, and the queue goes
        // on (an exception here would stop it for good).
      }
      afterRollback();
      job.reject(reason(error));
    }
  }

  /**
   * Runs the read jobs queued at the head of the queue in one read transaction: one snapshot,
   * one BEGIN and COMMIT (and one pair of the file locks behind them) for all of them. Only jobs
   * queued before it begins join, so none sees a snapshot older than its own arrival. A job
   * that tries to write (a token's lastUsedAt, a search index catching up) is stopped before
   * the write and run again after the group, alone as a write, as is one that met a busy
   * database; so a shared read transaction never writes, and a request's writes still commit
   * or roll back with it alone.
   */
  async function runReadGroup(): Promise<void> {
    if (leadingReads() < 2) {
      // Let the requests that arrived meanwhile reach the queue (I/O callbacks run before
      // setImmediate's), so that they can share this snapshot.
      await new Promise((resolve) => setImmediate(resolve));
    }
    const members = jobs.splice(0, Math.max(1, leadingReads()));
    const finished: { job: Job; value: unknown }[] = [];
    const again: Job[] = [];
    for (const job of members) {
      const access = sharedReadAccess();
      try {
        if (!db.inTransaction) {
          statements.begin.read.run();
          afterBegin();
        }
        const value = await job.work(access);
        access.close();
        // Work that swallowed the refusal of its write did not do what it meant to.
        if (access.wanted) again.push(job);
        else finished.push({ job, value });
      } catch (error) {
        access.close();
        if (access.wanted || isBusy(error)) again.push(job);
        else job.reject(error);
      }
    }
    try {
      if (db.inTransaction) statements.commit.run();
    } catch {
      // Ending a transaction that wrote nothing can fail only as the connection fails; what it
      // read was one snapshot all the same.
      try {
        if (db.inTransaction) statements.rollback.run();
      } catch {
        // Nothing was written to undo.
      }
      afterRollback();
    }
    for (const { job, value } of finished) job.resolve(value);
    for (const job of again) await runAlone(job);
  }

  /** How many read jobs wait at the head of the queue (at most a group's worth). */
  function leadingReads(): number {
    let count = 0;
    while (count < maxGroupSize && jobs[count]?.mode === 'read') count++;
    return count;
  }

  /** The next job to join a write group of `size` jobs, if one is queued and there is room. */
  const nextOfGroup = (size: number): Job | undefined =>
    size < maxGroupSize && jobs[0]?.mode === 'write' ? jobs.shift() : undefined;

  /**
   * Runs the write jobs at the head of the queue under one COMMIT.
   *
   * The members run without a savepoint each: a savepoint costs every request a copy of each
   * page it changes (SQLite's sub-journal) and a RELEASE, about a twentieth of a create's CPU,
   * and most failures (validation, a missing row, a version mismatch) come before any write. A
   * member that fails having changed no row is rejected, and the group goes on: the transaction
   * holds exactly what it held before that member ran. A member that fails after changing rows
   * can only be undone with the whole group: it is rejected, the group is rolled back, and the
   * members that had succeeded run again from the start, each in a savepoint of its own this
   * time (none of them was answered yet). Running a transaction's work again is allowed by the
   * port's contract (the PostgreSQL adapter does it after a lost race). Through the API, the
   * only write a request that then fails makes is its token's last-used time (at most once a
   * minute a token), besides I/O errors: a group runs again rarely, and at most once, since its
   * second run has savepoints.
   */
  async function runWriteGroup(): Promise<void> {
    const first = jobs.shift() as Job;
    const isolated = first.isolated === true;
    try {
      statements.begin.write.run();
    } catch (error) {
      first.reject(error);
      return;
    }
    afterBegin();
    const done: { job: Job; value: unknown }[] = [];
    let job: Job | undefined = first;
    let waits = 0;
    while (job) {
      const access = writeAccess();
      let inSavepoint = false;
      try {
        if (isolated) {
          statements.savepoint.run();
          inSavepoint = true;
        }
        const value = await job.work(access);
        access.close();
        if (inSavepoint) {
          beforeRelease();
          statements.release.run();
        }
        done.push({ job, value });
      } catch (thrown) {
        access.close();
        const error = reason(thrown);
        if (!db.inTransaction) {
          // SQLite gave the transaction up (an I/O error, a full disk): the group's earlier
          // work went with it, and no later member may join it.
          job.reject(error);
          abandon(done, error);
          return;
        }
        if (thrown instanceof GroupWorkFailed && !inSavepoint) {
          // Not this member's failure: it runs again with the others, each in a savepoint.
          runAgainIsolated([...done.map((member) => member.job), job]);
          return;
        }
        if (inSavepoint) {
          job.reject(error);
          if (!undoSavepoint()) {
            abandon(done, error);
            return;
          }
        } else if (access.changed === 0) {
          job.reject(error);
        } else {
          job.reject(error);
          runAgainIsolated(done.map((member) => member.job));
          return;
        }
      }
      job = nextOfGroup(done.length);
      if (!job && done.length < maxGroupSize && waits < maxWaitsForGroup) {
        // Let the requests that arrived meanwhile reach the queue (they wait for I/O callbacks,
        // which run before setImmediate's), so that they can share this COMMIT. A turn that
        // brings none ends the group; while turns bring more, requests are streaming in and the
        // group waits again, a few times at most.
        waits++;
        await new Promise((resolve) => setImmediate(resolve));
        job = nextOfGroup(done.length);
      }
    }
    try {
      beforeCommit();
      statements.commit.run();
    } catch (error) {
      if (error instanceof GroupWorkFailed && !isolated && db.inTransaction) {
        runAgainIsolated(done.map((member) => member.job));
        return;
      }
      abandon(done, reason(error));
      return;
    }
    for (const { job, value } of done) job.resolve(value);
  }

  /**
   * Rolls the group back and puts `members` back at the head of the queue, in their order, to
   * run again each in a savepoint. When even the rollback fails the connection cannot be
   * trusted: they hear the failure instead.
   */
  function runAgainIsolated(members: Job[]): void {
    try {
      statements.rollback.run();
    } catch (error) {
      afterRollback();
      for (const member of members) member.reject(error);
      return;
    }
    afterRollback();
    jobs.unshift(...members.map((member) => ({ ...member, isolated: true })));
  }

  /** Rolls the failed job's writes back to its savepoint; false when even that fails. */
  function undoSavepoint(): boolean {
    try {
      statements.rollbackToSavepoint.run();
      statements.release.run();
      return true;
    } catch {
      return false;
    } finally {
      afterRollback();
    }
  }

  /** Rolls the whole group back and tells each of its finished jobs why. */
  function abandon(done: readonly { job: Job }[], error: unknown): void {
    try {
      if (db.inTransaction) statements.rollback.run();
    } catch {
      // Nothing more can be undone; the callers below still hear of the failure.
    }
    afterRollback();
    for (const { job } of done) job.reject(error);
  }

  /** The hold's promise, if it holds; a hold only delays the queue, so a failed one is ignored. */
  function heldBy(hold: () => Promise<void> | undefined): Promise<void> | undefined {
    try {
      return hold()?.catch(() => {});
    } catch {
      return undefined;
    }
  }

  async function pump(): Promise<void> {
    while (jobs.length > 0) {
      if (jobs[0]?.mode === 'write') {
        const held = heldBy(beforeWriteGroup);
        if (held) await held;
        await runWriteGroup();
      } else {
        await runReadGroup();
      }
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
