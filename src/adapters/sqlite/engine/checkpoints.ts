import { statSync } from 'node:fs';
import { type CheckpointsRunIn, type CheckpointThread, startCheckpointThread } from './checkpoint-thread.js';

/**
 * What of the storage's connection this needs. Not better-sqlite3's type: this module's types
 * are public (`Checkpointing`), and the package's types must not need the driver's.
 */
interface Connection {
  readonly open: boolean;
  readonly memory: boolean;
  pragma(source: string): unknown;
}

/** Where the log is copied into the database, and what the adapter's thread has done so far. */
export interface Checkpointing {
  /**
   * 'thread': a worker thread of the adapter copies it. 'commit': the COMMIT that takes the log
   * past the threshold does (SQLite's own way): until the storage has written enough to start
   * the thread, after the thread failed until a new one has started, and for ':memory:', which
   * has no log.
   */
  runIn: CheckpointsRunIn;
  /** How many threads the storage has started: the first, and one after each failure. */
  threadStarts: number;
  /** How many checkpoint passes the thread has run. */
  threadPasses: number;
  /** How many times the thread copied the log's last frames while the storage held its writes. */
  threadFinishes: number;
  /** Why the last thread that stopped did. */
  threadFailure?: string;
}

/** What the storage does about checkpoints (see checkpoint-thread.ts for the thread itself). */
export interface Checkpoints {
  /** A write group is about to commit. */
  wrote(): void;
  /** Before a write group, with no transaction open: a promise holds the group until it settles. */
  beforeWriteGroup(): Promise<void> | undefined;
  checkpointing(): Checkpointing;
  /** Ends the thread; the storage closes its connection after this, as the last one. */
  close(): Promise<void>;
}

/**
 * While the thread runs, the storage's own automatic checkpoint stays on at this multiple of the
 * threshold: the bound on the log should the thread fall behind.
 */
export const backpressureFactor = 2;

/**
 * The thread starts once the storage has committed this many write groups: a command that
 * opens the file for a few writes (the CLI, a test) would pay for a thread it never needs
 * (about 50 ms to start and stop it, 7 MB), and its log never reaches the threshold anyway.
 */
export const startAfterWriteGroups = 64;

/**
 * ...or sooner, once the log file holds this share of the threshold. A server that meets full
 * load as it starts writes 64 groups of 50 creates, about 9,000 pages, before the count above is
 * reached: the COMMIT that passed the 8,000-page threshold copied the log on the event loop (a
 * 40 ms stall). Until the thread starts, each write group looks at the log file's size (a stat,
 * no descriptor: see checkpoint-thread.ts), which only grows until the log first starts over.
 */
export const startAtThresholdShare = 1 / 4;

/**
 * After a thread fails, the storage starts another on a write this long after, doubled at each
 * failure in a row (a thread that fails before it has copied anything counts as in a row), up to
 * `maxRestartDelayMs`: a failure that lasts (no worker threads, a driver the thread cannot load,
 * a disk that stays full) costs a thread's start a minute, and a passing one does not leave the
 * COMMIT copying the log for good.
 */
export const firstRestartDelayMs = 1000;
export const maxRestartDelayMs = 60_000;

/** What storageCheckpoints starts threads with, and reads the time from (tests replace them). */
export interface CheckpointDeps {
  startThread: typeof startCheckpointThread;
  now: () => number;
}

/**
 * Checkpoints of the storage's connection `db` at `pages` frames: in the COMMIT (SQLite's own
 * way) until the storage has written `startAfterWriteGroups` groups, then on the thread; after a
 * thread fails, in the COMMIT again until a write starts the next one (see firstRestartDelayMs).
 */
export function storageCheckpoints(
  db: Connection,
  pages: number,
  { startThread, now }: CheckpointDeps = { startThread: startCheckpointThread, now: () => performance.now() },
): Checkpoints {
  let runIn: CheckpointsRunIn = 'commit';
  let thread: CheckpointThread | null = null;
  /** Failed threads still closing: the storage's close waits for them. */
  const closing = new Set<Promise<void>>();
  let failure: string | undefined;
  let writeGroups = 0;
  let starts = 0;
  let failuresInARow = 0;
  /** When a write may start the next thread, after a failure. */
  let restartAt: number | null = null;
  const checkpointIn = (where: CheckpointsRunIn) => {
    runIn = where;
    if (!db.open) return;
    // SQLite reads the number as a 32-bit integer: past that it would read 0, which is "never".
    const autocheckpoint = where === 'thread' ? Math.min(pages * backpressureFactor, 2 ** 31 - 1) : pages;
    db.pragma(`wal_autocheckpoint = ${autocheckpoint}`);
  };
  checkpointIn('commit');
  // The file as SQLite resolved it: a relative name, a symbolic link or a later chdir() would
  // send the thread elsewhere than the log this connection writes.
  const mainFile = () =>
    (db.pragma('database_list') as { name: string; file: string }[]).find((entry) => entry.name === 'main')
      ?.file;
  /** The log file, and the size at which it holds the start share of the threshold; null without a file. */
  let startMark: { wal: string; bytes: number } | null | undefined;
  const logPastStartMark = (): boolean => {
    if (startMark === undefined) {
      const path = mainFile();
      const [{ page_size: pageSize }] = db.pragma('page_size') as [{ page_size: number }];
      // The log's 32-byte header, then a 24-byte header before each page.
      const frames = Math.ceil(pages * startAtThresholdShare);
      startMark = path ? { wal: `${path}-wal`, bytes: 32 + frames * (pageSize + 24) } : null;
    }
    if (startMark === null) return false;
    return (statSync(startMark.wal, { throwIfNoEntry: false })?.size ?? 0) >= startMark.bytes;
  };
  const start = () => {
    const path = mainFile();
    if (!path) return;
    starts++;
    // This start's thread, once startThread has returned it; `stopped` once it has failed, which
    // a thread that cannot start at all says before it returns.
    let self: CheckpointThread | null = null;
    let stopped = false;
    self = startThread(path, pages, (news) => {
      if (stopped) return;
      if (news.ready) {
        checkpointIn('thread');
        return;
      }
      stopped = true;
      failure = news.failure;
      // A thread that copied something ends a run of failures; one that failed before did not.
      failuresInARow = (self?.done().passes ?? 0) > 0 ? 1 : failuresInARow + 1;
      restartAt = now() + Math.min(firstRestartDelayMs * 2 ** (failuresInARow - 1), maxRestartDelayMs);
      if (self) retire(self);
      if (thread === self) thread = null;
      checkpointIn('commit');
    });
    if (stopped) retire(self);
    else thread = self;
  };
  const retire = (failed: CheckpointThread) => {
    const closed = failed.close().finally(() => closing.delete(closed));
    closing.add(closed);
  };
  return {
    wrote() {
      if (thread) thread.wrote();
      else if (db.memory) return;
      else if (
        restartAt === null
          ? ++writeGroups === startAfterWriteGroups || logPastStartMark()
          : now() >= restartAt
      ) {
        start();
      }
    },
    beforeWriteGroup: () => thread?.pauseForFinish(),
    checkpointing() {
      const done = thread?.done() ?? { checks: 0, passes: 0, finishes: 0 };
      return {
        runIn,
        threadStarts: starts,
        threadPasses: done.passes,
        threadFinishes: done.finishes,
        ...(failure === undefined ? {} : { threadFailure: failure }),
      };
    },
    close: async () => {
      await Promise.all([thread?.close(), ...closing]);
    },
  };
}
