import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * Copies the write-ahead log into the database file (a checkpoint) on a worker thread with a
 * connection of its own, instead of in the COMMIT that takes the log past the threshold.
 *
 * SQLite's own automatic checkpoint runs inside that COMMIT, on the connection's thread: with
 * better-sqlite3 that is the event loop, which then stops for the whole copy (8,000 pages take
 * about 100 ms on a 2-core machine, so under load one create in a hundred waits that long). A
 * PASSIVE checkpoint takes no lock a writer waits for, so on its own thread COMMITs go on while
 * it copies, in passes, each over the frames appended during the one before.
 *
 * The log starts over from its beginning only when a write transaction begins with every frame
 * copied, and under load the storage begins the next write right after each COMMIT: the passes
 * alone never win that race, and the log would grow for good. So once a pass leaves at most
 * `tailPages` behind, the storage holds its next write group (`pauseForFinish`) while
 * the thread copies those last few; the next write then starts the log over. The pause holds
 * writes (and what queued behind them), not reads before them, which cannot keep the log from
 * starting over: the queue ends each read before it begins a write. That pause is
 * mostly the pass's two fsyncs (about 30 ms on a 2-core machine, whether 64 frames are left or
 * 512), and the event loop runs on meanwhile: requests wait (and then share one COMMIT), as they
 * would for the lock, where SQLite's own checkpoint stopped everything for the whole copy.
 *
 * What this design keeps away from:
 * - It never opens the `-shm` file or the database file itself: closing such a descriptor drops
 *   every POSIX lock the process holds on the file, SQLite's included. It learns how far the log
 *   has grown from the log file (SQLite locks nothing there): its header and frame headers, in
 *   the documented format (walformat.html). Shortening the file each time the log starts over,
 *   so that its size would tell, made those COMMITs take 20 ms.
 * - The commit path only notes that the storage wrote; a check is sent at most every
 *   `checkEveryMs`, and a pause ends after `finishWithinMs` whatever the thread does.
 * - It does not let the log grow without bound: the storage's connection keeps SQLite's automatic
 *   checkpoint at twice the threshold (checkpoints.ts), so should the thread fall behind, a
 *   COMMIT past that mark copies what the thread has not, as SQLite always does. That copy is
 *   PASSIVE too, and skipped while the thread's pass holds the checkpoint lock, so the mark is a
 *   soft one: a log of one process with small transactions stays within about three times the
 *   threshold under full load (SQLite's own way: about twice).
 * - It does not keep the process alive: the worker is unref'd (after its listeners, which
 *   would ref it again), and close() refs it only while it waits for it to end.
 */
export interface CheckpointThread {
  /** The storage wrote: the log may have passed the threshold. Costs no message by itself. */
  wrote(): void;
  /**
   * Asked between two transactions, none open: a promise when the thread is to copy the last
   * frames now, which the storage waits for before it begins the next transaction.
   */
  pauseForFinish(): Promise<void> | undefined;
  /** What the thread has done so far (a diagnostic: tests tell thread from COMMIT by it). */
  done(): ThreadWork;
  /** Ends the thread after the pass under way and closes its connection. */
  close(): Promise<void>;
}

/** Where checkpoints run: 'thread' once the thread is ready, 'commit' before that and for good if it fails. */
export type CheckpointsRunIn = 'thread' | 'commit';

/** Checks answered, checkpoint passes run, and finishes (passes in a pause that left nothing behind). */
export interface ThreadWork {
  checks: number;
  passes: number;
  finishes: number;
}

/** What the thread tells its storage: it is ready, or it failed (and why) and has ended. */
export type ThreadNews = { ready: true } | { ready: false; failure: string };

/** The worker, as CommonJS source: it runs from the built package and from TypeScript sources alike. */
const workerSource = `
const { parentPort, workerData } = require('node:worker_threads');
const { openSync, readSync, fstatSync, closeSync } = require('node:fs');
const Database = require(workerData.driver);
const db = new Database(workerData.filename, { fileMustExist: true });
db.pragma('busy_timeout = 5000');
const walHeader = Buffer.alloc(32);
const frameHeader = Buffer.alloc(16);
// The frames of the log since it last started over. The log file is never shortened, and the
// frames of the current log are the ones carrying its header's salts: a prefix of the file.
const framesInLog = () => {
  let fd;
  try {
    fd = openSync(workerData.filename + '-wal', 'r');
  } catch {
    return 0;
  }
  try {
    if (readSync(fd, walHeader, 0, 32, 0) < 32) return 0;
    const frameBytes = walHeader.readUInt32BE(8) + 24;
    const salts = walHeader.readBigUInt64BE(16);
    const current = (frame) =>
      readSync(fd, frameHeader, 0, 16, 32 + frame * frameBytes) === 16 && frameHeader.readBigUInt64BE(8) === salts;
    let low = 0;
    let high = Math.floor((fstatSync(fd).size - 32) / frameBytes);
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (current(middle)) low = middle + 1;
      else high = middle;
    }
    return low;
  } finally {
    closeSync(fd);
  }
};
parentPort.on('message', (message) => {
  if (message === 'close') {
    db.close();
    parentPort.close();
    return;
  }
  try {
    // 'check': passes while the log is past the threshold, until few frames are left behind.
    // 'finish': the storage holds its writes; one pass copies what is left.
    let passes = 0;
    let behind = 0;
    if (message === 'finish' || framesInLog() >= workerData.pages) {
      do {
        const [result] = db.pragma('wal_checkpoint(PASSIVE)');
        passes++;
        behind = result.busy !== 0 ? -1 : result.log - result.checkpointed;
      } while (behind > workerData.tailPages && passes < workerData.maxPasses);
    }
    parentPort.postMessage({ passes, behind });
  } catch (error) {
    parentPort.postMessage({ failed: String(error) });
  }
});
parentPort.postMessage('ready');
`;

/** The most passes one check runs before it waits for the next: ends a chase of a busy log. */
const maxPasses = 16;

/** A pass that leaves at most this many frames behind asks the storage for a pause to finish. */
const tailPages = 512;

/** A pause for the last frames ends after this long even if the thread has not answered. */
const finishWithinMs = 100;

/**
 * The thread looks at the log at most this often: a message each COMMIT would cost the event
 * loop a few percent of a create, and at a create's few pages the log grows by a few hundred
 * pages in this time under full load, against a threshold of thousands.
 */
const checkEveryMs = 25;

/**
 * Starts the thread for the database at `path` (absolute, as SQLite resolved it), copying once
 * `pages` frames wait. `told` hears once that it is ready, and once if it cannot start or fails
 * later, with why (the storage then checkpoints in the COMMIT again, SQLite's own way).
 *
 * The thread's connection shares the process's locks on the database and -shm files only
 * because it runs in the same loaded copy of SQLite as the storage's: the driver is resolved
 * from this package, as the storage's own import of it is. A bundle that copies the native
 * driver to a second place would break that; one without a resolvable driver gets no thread.
 */
export function startCheckpointThread(
  path: string,
  pages: number,
  told: (news: ThreadNews) => void,
): CheckpointThread {
  let worker: Worker;
  try {
    worker = new Worker(workerSource, {
      eval: true,
      // Not the process's flags: under --input-type=module the source would not run as CommonJS.
      execArgv: [],
      workerData: {
        filename: path,
        pages,
        maxPasses,
        tailPages,
        driver: createRequire(import.meta.url).resolve('better-sqlite3'),
      },
    });
  } catch (error) {
    // No thread here (a runtime without worker threads, a bundle without the driver's path).
    told({ ready: false, failure: `the thread cannot start: ${String(error)}` });
    return {
      wrote: () => {},
      pauseForFinish: () => undefined,
      done: () => ({ checks: 0, passes: 0, finishes: 0 }),
      close: async () => {},
    };
  }
  let state: 'starting' | 'idle' | 'checking' | 'finishing' | 'failed' | 'closed' = 'starting';
  let wroteSinceCheck = false;
  let finishWanted = false;
  let finished: (() => void) | null = null;
  let checks = 0;
  let passes = 0;
  let finishes = 0;
  let timer: NodeJS.Timeout | null = null;
  const check = () => {
    timer = null;
    if (state !== 'idle') return;
    wroteSinceCheck = false;
    state = 'checking';
    worker.postMessage('check');
  };
  const checkSoon = () => {
    timer ??= setTimeout(check, checkEveryMs).unref();
  };
  const fail = (failure: string) => {
    if (state === 'failed' || state === 'closed') return;
    state = 'failed';
    if (timer) clearTimeout(timer);
    timer = null;
    finished?.();
    told({ ready: false, failure });
    void worker.terminate();
  };
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.on('error', (error) => fail(`the thread failed: ${String(error)}`));
  worker.once('exit', (code) => fail(`the thread ended (exit code ${code})`));
  worker.on('message', (message: unknown) => {
    if (state === 'failed' || state === 'closed') return;
    if (message === 'ready') {
      told({ ready: true });
    } else if (isReport(message)) {
      if (state === 'checking') checks++;
      passes += message.passes;
      if (state === 'finishing' && message.behind === 0) finishes++;
      // After a check's passes, the last frames are copied in a pause; after the pause, not
      // again until the next check has run passes (a busy pass, -1, met another checkpointer).
      finishWanted =
        state === 'checking' && message.passes > 0 && message.behind >= 0 && message.behind <= tailPages;
      finished?.();
    } else {
      const failed = (message as { failed?: unknown } | null)?.failed;
      fail(`a checkpoint failed: ${typeof failed === 'string' ? failed : String(message)}`);
      return;
    }
    state = 'idle';
    if (wroteSinceCheck) checkSoon();
  });
  // After the listeners: adding a 'message' listener refs the worker again.
  worker.unref();
  return {
    wrote() {
      wroteSinceCheck = true;
      if (state === 'idle') checkSoon();
    },
    pauseForFinish() {
      if (!finishWanted || state !== 'idle') return undefined;
      finishWanted = false;
      state = 'finishing';
      worker.postMessage('finish');
      return new Promise<void>((resolve) => {
        const late = setTimeout(() => {
          finished = null;
          resolve();
        }, finishWithinMs);
        finished = () => {
          clearTimeout(late);
          finished = null;
          resolve();
        };
      });
    },
    done: () => ({ checks, passes, finishes }),
    async close() {
      if (state === 'closed') return;
      const running = state !== 'failed';
      state = 'closed';
      if (timer) clearTimeout(timer);
      timer = null;
      finished?.();
      // A pending promise does not keep the process alive: the thread's handle must, until it ends.
      worker.ref();
      if (running) worker.postMessage('close');
      await exited;
    },
  };
}

/** What the thread answers a check or a finish: passes run, and frames left behind (-1: busy). */
interface Report {
  passes: number;
  behind: number;
}

function isReport(message: unknown): message is Report {
  if (typeof message !== 'object' || message === null) return false;
  const { passes, behind } = message as Partial<Record<keyof Report, unknown>>;
  return typeof passes === 'number' && typeof behind === 'number';
}
