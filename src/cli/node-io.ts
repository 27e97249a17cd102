import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { openDatabase } from './database.js';
import { invocation } from './invocation.js';
import type { CliIo } from './io.js';
import { stderrLogDestination } from './server/logger.js';

/**
 * Writes lines to a stream until its reader goes away. `outcome-tracker openapi | head` closes
 * the pipe early; that is the reader's choice, not a failure worth a stack trace.
 */
function lineWriter(stream: NodeJS.WriteStream): (line: string) => void {
  let closed = false;
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    closed = true;
  });
  return (line) => {
    if (!closed) stream.write(`${line}\n`);
  };
}

/** The CLI's outside world: this process's streams and environment, and its databases. */
export function processIo(): CliIo {
  return {
    out: lineWriter(process.stdout),
    async writeOut(text) {
      if (!process.stdout.write(text)) await once(process.stdout, 'drain');
    },
    err: lineWriter(process.stderr),
    async readStdinLine(prompt) {
      if (process.stdin.isTTY) process.stderr.write(prompt);
      const lines = createInterface({ input: process.stdin, terminal: false, crlfDelay: Infinity });
      try {
        for await (const line of lines) return line;
        return '';
      } finally {
        lines.close();
        process.stdin.destroy();
      }
    },
    env: process.env,
    invocation: invocation(process.env, process.argv[1] ?? 'outcome-tracker', process.cwd()),
    logDestination: stderrLogDestination,
    openDatabase,
  };
}
