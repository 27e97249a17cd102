import { createRequire } from 'node:module';
import pino, { type DestinationStream, type Logger } from 'pino';
import type { CliIo } from '../io.js';

export const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof logLevels)[number];

export interface ServeLogger {
  logger: Logger;
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
    return { logger: pino(options, destination.stream), flush: destination.flush };
  }
  // Commands run in-process (tests) log through the io's error lines.
  const lines: DestinationStream = { write: (line: string) => io.err(line.trimEnd()) };
  return { logger: pino(options, lines), flush: async () => {} };
}

/** Standard error as the log destination: pretty on a terminal when pino-pretty is installed, else async JSON. */
export function stderrLogDestination(): { stream: DestinationStream; flush(): Promise<void> } {
  if (process.stderr.isTTY) {
    const pretty = loadPretty();
    if (pretty) return { stream: pretty({ destination: 2, sync: true }), flush: async () => {} };
  }
  // Asynchronous, written as soon as the event loop is free: a log reader sees lines promptly.
  const destination = pino.destination({ dest: 2, sync: false });
  return {
    stream: destination,
    // Not flushSync(): with a write in flight it writes the lines behind that one first, so the
    // last line ("stopped") could come out before the one in flight. end() waits for that write,
    // writes the rest in order and leaves standard error open.
    flush: () =>
      new Promise<void>((resolve) => {
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
