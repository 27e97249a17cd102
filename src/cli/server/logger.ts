import { writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import pino, { type DestinationStream, type Logger } from 'pino';
import type { RequestLogEntry } from '../../core/index.js';
import type { CliIo } from '../io.js';
import { BatchedLines } from './batched-lines.js';

export const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof logLevels)[number];

export interface ServeLogger {
  logger: Logger;
  /**
   * Logs one answered request at info: the line pino would write for
   * `logger.info(entry, 'request')`, built straight from the entry's five fields (no object
   * walk, no second serialisation): it is the one line every request writes.
   */
  request(entry: RequestLogEntry): void;
  /** Writes out what the asynchronous destination still holds, in order: the last thing it does. */
  flush(): Promise<void>;
}

/**
 * The server's log: one JSON object per line (level, time, requestId…) on standard error. Lines are
 * written asynchronously in batches, off the request path; `flush` empties the buffer at exit. On a
 * terminal, with pino-pretty installed (a development dependency), the lines are pretty-printed.
 */
export function serveLogger(io: CliIo, level: LogLevel): ServeLogger {
  const options = {
    level,
    base: null,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label: string) => ({ level: label }) },
  };
  if (io.logDestination) {
    const destination = io.logDestination();
    const logger = pino(options, destination.stream);
    return { logger, request: requestLines(logger, destination.stream), flush: destination.flush };
  }
  // Commands run in-process (tests) log through the io's error lines.
  const lines: DestinationStream = { write: (line: string) => io.err(line.trimEnd()) };
  const logger = pino(options, lines);
  return { logger, request: requestLines(logger, lines), flush: async () => {} };
}

/**
 * The request line writer: `{"level":"info","time":…,"method":…,"path":…,"status":…,
 * "durationMs":…,"requestId":…,"msg":"request"}`, as pino formats it with the options above.
 * The level is read at each call, so a level changed on the logger holds here too.
 */
function requestLines(logger: Logger, stream: DestinationStream): (entry: RequestLogEntry) => void {
  return (entry) => {
    if (!logger.isLevelEnabled('info')) return;
    stream.write(
      `{"level":"info","time":"${new Date().toISOString()}","method":${JSON.stringify(entry.method)},` +
        `"path":${JSON.stringify(entry.path)},"status":${entry.status},"durationMs":${entry.durationMs},` +
        `"requestId":${JSON.stringify(entry.requestId)},"msg":"request"}\n`,
    );
  };
}

/** Standard error as the log destination: pretty on a terminal when pino-pretty is installed, else async JSON. */
export function stderrLogDestination(): { stream: DestinationStream; flush(): Promise<void> } {
  if (process.stderr.isTTY) {
    const pretty = loadPretty();
    if (pretty) return { stream: pretty({ destination: 2, sync: true }), flush: async () => {} };
  }
  // Asynchronous and batched: lines are written 32 kB at a time (a write per line was a seventh of
  // a GET's CPU), and at least every 100 ms, so a log reader still sees a quiet server's lines
  // promptly. The lines are gathered here (BatchedLines); the destination writes each chunk at
  // once, or with the chunks behind it while a write is in flight.
  const destination = pino.destination({ dest: 2, sync: false });
  const lines = new BatchedLines(destination);
  // An exit that does not flush (a crash, process.exit, a drained event loop) still writes what
  // is gathered, synchronously: what the destination holds, then these lines. Not through its
  // write(), which starts an asynchronous write the exiting process may never finish.
  process.once('exit', () => {
    try {
      destination.flushSync();
    } catch {
      // Ended already (the flush ran), or standard error gone.
    }
    const rest = lines.take();
    if (rest === '') return;
    try {
      writeSync(2, rest);
    } catch {
      // Standard error gone: nothing can be written.
    }
  });
  return {
    stream: lines,
    // Not flushSync(): with a write in flight it writes the lines behind that one first, so the
    // last line ("stopped") could come out before the one in flight. end() waits for that write,
    // writes the rest in order and leaves standard error open.
    flush: () =>
      new Promise<void>((resolve) => {
        lines.pass();
        const timer = setTimeout(resolve, endWithinMs);
        destination.once('close', () => {
          clearTimeout(timer);
          resolve();
        });
        try {
          destination.end();
        } catch {
          // Already ended, or standard error gone: nothing left to write.
          clearTimeout(timer);
          resolve();
        }
      }),
  };
}

/** How long the last log lines may take to be written before the process exits without them. */
const endWithinMs = 2000;

type PrettyFactory = (options: { destination: number; sync: boolean }) => DestinationStream;

/** pino-pretty when installed; an install without development dependencies logs JSON. */
function loadPretty(): PrettyFactory | null {
  try {
    return createRequire(import.meta.url)('pino-pretty') as PrettyFactory;
  } catch {
    return null;
  }
}
