import { createRequire } from 'node:module';
import { endianness } from 'node:os';
import { Worker } from 'node:worker_threads';

/**
 * Copies the write-ahead log into the database file (a checkpoint) on a worker thread with a
 * connection of its own, instead of in the COMMIT that takes the log past the threshold.
 *
 * SQLite's own automatic checkpoint runs inside that COMMIT, on the connection's thread: with
 * better-sqlite3 that is the event loop, which then stops for the whole copy (8,000 pages took
 * about 100 ms on a 2-core machine, so one create in a hundred waited that long under load). A
 * PASSIVE checkpoint takes no lock writers wait for: on its own thread, COMMITs go on while it
 * copies. But the log starts over from its beginning only when a write begins with every frame
 * copied, which frames appended during the copy prevent; so the thread copies in passes, each
 * catching up with the frames appended during the one before, until few are left, and then asks
 * the connection to copy those few itself right after a COMMIT (`finishOnConnection`), when
 * no write of this process is under way: a pause of a few pages instead of thousands.
 *
 * How far the log has grown is read from the WAL index (the -shm file), whose header is part
 * of SQLite's documented file format (walformat.html): `mxFrame`, the last valid frame, at
 * byte 16 and `nBackfill`, the frames already copied, at byte 96, in native byte order. The
 * thread reads them after commits (one message in flight at a time) and starts once `pages`
 * frames wait to be copied, as `wal_autocheckpoint` would.
 */
export interface Checkpointer {
  /** A write transaction committed: the log may now be past the threshold. */
  committed(): void;
  /** Ends the thread, after the checkpoint under way, closing its connection. */
  close(): Promise<void>;
}

/** The worker, as CommonJS source: it runs from the built package and from TypeScript sources alike. */
const workerSource = `
const { parentPort, workerData } = require('node:worker_threads');
const { openSync, readSync, closeSync } = require('node:fs');
const Database = require(workerData.driver);
const db = new Database(workerData.filename, { fileMustExist: true });
db.pragma('busy_timeout = 5000');
db.pragma('synchronous = NORMAL');
const header = Buffer.alloc(100);
const read = workerData.littleEndian ? (at) => header.readUInt32LE(at) : (at) => header.readUInt32BE(at);
let shm = null;
const waiting = () => {
  if (shm === null) shm = openSync(workerData.filename + '-shm', 'r');
  return readSync(shm, header, 0, 100, 0) === 100 ? read(16) - read(96) : 0;
};
parentPort.postMessage('ready');
parentPort.on('message', (message) => {
  if (message === 'close') {
    if (shm !== null) closeSync(shm);
    db.close();
    parentPort.close();
    return;
  }
  try {
    if (waiting() < workerData.pages) {
      parentPort.postMessage('done');
      return;
    }
    let left = waiting();
    for (let pass = 0; pass < workerData.passes && left > workerData.tail; pass++) {
      db.pragma('wal_checkpoint(PASSIVE)');
      left = waiting();
    }
    parentPort.postMessage(left === 0 ? 'done' : 'finish');
  } catch (error) {
    parentPort.postMessage({ failed: String(error) });
  }
});
`;

/** At most this many frames are left for the connection to copy after the thread's passes. */
const tailPages = 256;
/** The thread's passes over the log before it hands over what is left, however much. */
const maxPasses = 8;
/**
 * The thread looks at the log at most this often: a message each COMMIT cost the event loop a
 * few percent of a create's CPU, and at a create's few pages the log grows by a few hundred
 * pages in this time under full load, against a threshold of thousands.
 */
const checkEveryMs = 25;

/**
 * Starts the thread for the database `filename`. Until it is ready, and for good if it fails,
 * `inline` is told to checkpoint in the COMMIT again (true) or to leave it to the thread (false);
 * `finishOnConnection` copies the last frames on the storage's own connection.
 */
export function startCheckpointer(
  filename: string,
  pages: number,
  inline: (checkpointInCommit: boolean) => void,
  finishOnConnection: () => void,
): Checkpointer {
  let worker: Worker;
  try {
    worker = startWorker(filename, pages);
  } catch {
    // No thread here (a runtime without worker threads, a bundle without the driver's path):
    // SQLite checkpoints in the COMMIT, as it does by itself.
    inline(true);
    return { committed: () => {}, close: async () => {} };
  }
  // An embedder that never calls close() can still exit.
  worker.unref();
  let state: 'starting' | 'idle' | 'checking' | 'failed' | 'closed' = 'starting';
  let committedSinceCheck = false;
  /** The thread asked for the last frames to be copied after the next COMMIT. */
  let finishAfterCommit = false;
  let lastCheckAt = Number.NEGATIVE_INFINITY;
  let timer: NodeJS.Timeout | null = null;
  const check = () => {
    committedSinceCheck = false;
    state = 'checking';
    lastCheckAt = performance.now();
    worker.postMessage('check');
  };
  /** Checks now, or once `checkEveryMs` has passed since the last check (one timer at most). */
  const checkSoon = () => {
    const wait = lastCheckAt + checkEveryMs - performance.now();
    if (wait <= 0) {
      check();
      return;
    }
    committedSinceCheck = true;
    timer ??= setTimeout(() => {
      timer = null;
      if (state === 'idle' && committedSinceCheck) check();
    }, wait).unref();
  };
  const fail = () => {
    if (state === 'failed' || state === 'closed') return;
    state = 'failed';
    inline(true);
  };
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.on('error', fail);
  worker.once('exit', fail);
  worker.on('message', (message: unknown) => {
    if (state === 'failed' || state === 'closed') return;
    if (message === 'ready') {
      inline(false);
    } else if (message === 'finish') {
      finishAfterCommit = true;
    } else if (message !== 'done') {
      fail();
      return;
    }
    state = 'idle';
    if (committedSinceCheck) checkSoon();
  });
  return {
    committed() {
      if (finishAfterCommit) {
        finishAfterCommit = false;
        finishOnConnection();
      }
      if (state === 'idle') checkSoon();
      else committedSinceCheck = true;
    },
    async close() {
      if (state === 'closed') return;
      const wasRunning = state !== 'failed';
      state = 'closed';
      if (timer) clearTimeout(timer);
      // A pending promise does not keep the process alive: the thread's handle must, until it ends.
      worker.ref();
      if (wasRunning) worker.postMessage('close');
      else await worker.terminate();
      await exited;
    },
  };
}

function startWorker(filename: string, pages: number): Worker {
  return new Worker(workerSource, {
    eval: true,
    workerData: {
      filename,
      pages,
      tail: Math.min(tailPages, pages),
      passes: maxPasses,
      driver: createRequire(import.meta.url).resolve('better-sqlite3'),
      littleEndian: endianness() === 'LE',
    },
  });
}
