import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import type { CliIo } from './io.js';

/**
 * Resolves when the stream drains, rejects if it fails first, and leaves no listener behind: a
 * million lines wait for a drain thousands of times, and a listener left each time would be kept.
 */
function drained(stream: WriteStream): Promise<void> {
  return new Promise((resolve, reject) => {
    const onDrain = () => {
      stream.off('error', onError);
      resolve();
    };
    const onError = (error: Error) => {
      stream.off('drain', onDrain);
      reject(error);
    };
    stream.once('drain', onDrain);
    stream.once('error', onError);
  });
}

/** Where a command writes lines it may write millions of: waits while the reader is behind. */
export interface LineSink {
  write(line: string): Promise<void> | void;
  /** Flushes and closes (a file), or does nothing (standard output). */
  close(): Promise<void>;
}

/**
 * A file written through a stream that is waited on when its buffer is full, so memory holds a
 * buffer whatever the output's size; without a file, standard output through the io.
 */
export function lineSink(io: CliIo, file: string | undefined): LineSink {
  if (file === undefined) {
    return {
      write: (line) => (io.writeOut ? io.writeOut(`${line}\n`) : io.out(line)),
      close: async () => {},
    };
  }
  const stream = createWriteStream(file);
  let failure: Error | null = null;
  stream.on('error', (error) => {
    failure = error;
  });
  return {
    async write(line) {
      if (failure) throw failure;
      if (!stream.write(`${line}\n`)) await drained(stream);
    },
    async close() {
      stream.end();
      if (!stream.closed) await Promise.race([once(stream, 'close'), once(stream, 'error')]).catch(() => {});
      if (failure) throw failure;
    },
  };
}
