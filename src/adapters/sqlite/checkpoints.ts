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
   * the thread, for good if the thread failed, and for ':memory:', which has no log.
   */
  runIn: CheckpointsRunIn;
  /** How many checkpoint passes the thread has run. */
  threadPasses: number;
  /** How many times the thread copied the log's last frames while the storage held its writes. */
  threadFinishes: number;
  /** Why the thread stopped, when it did. */
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
 * Checkpoints of the storage's connection `db` at `pages` frames: in the COMMIT (SQLite's own
 * way) until the storage has written `startAfterWriteGroups` groups, then on the thread.
 */
export function storageCheckpoints(db: Connection, pages: number): Checkpoints {
  let runIn: CheckpointsRunIn = 'commit';
  let thread: CheckpointThread | null = null;
  let failure: string | undefined;
  let writeGroups = 0;
  const checkpointIn = (where: CheckpointsRunIn) => {
    runIn = where;
    if (!db.open) return;
    // SQLite reads the number as a 32-bit integer: past that it would read 0, which is "never".
    const autocheckpoint = where === 'thread' ? Math.min(pages * backpressureFactor, 2 ** 31 - 1) : pages;
    db.pragma(`wal_autocheckpoint = ${autocheckpoint}`);
  };
  checkpointIn('commit');
  const start = () => {
    // The file as SQLite resolved it: a relative name, a symbolic link or a later chdir() would
    // send the thread elsewhere than the log this connection writes.
    const path = (db.pragma('database_list') as { name: string; file: string }[]).find(
      (entry) => entry.name === 'main',
    )?.file;
    if (!path) return;
    thread = startCheckpointThread(path, pages, (news) => {
      if (news.ready) {
        checkpointIn('thread');
      } else {
        failure = news.failure;
        checkpointIn('commit');
      }
    });
  };
  return {
    wrote() {
      if (thread) thread.wrote();
      else if (!db.memory && ++writeGroups === startAfterWriteGroups) start();
    },
    beforeWriteGroup: () => thread?.pauseForFinish(),
    checkpointing() {
      const done = thread?.done() ?? { checks: 0, passes: 0, finishes: 0 };
      return {
        runIn,
        threadPasses: done.passes,
        threadFinishes: done.finishes,
        ...(failure === undefined ? {} : { threadFailure: failure }),
      };
    },
    close: async () => thread?.close(),
  };
}
