import type { DestinationStream } from 'pino';
import type { Storage } from '../core/port/index.js';

/** A database the command opened, and whether it was created just now. */
export interface OpenedDatabase {
  storage: Storage;
  /** The absolute path of the file, or the PostgreSQL URL without its password. */
  path: string;
  created: boolean;
}

/**
 * What a command touches outside itself. `main.ts` wires it to the process; tests can hand in
 * their own to run commands in-process.
 */
export interface CliIo {
  /** Writes one line to standard output. */
  out(line: string): void;
  /**
   * Writes text to standard output, resolving once the stream can take more: what a command that
   * writes millions of lines uses, so its memory does not fill with what the reader has not read.
   */
  writeOut?(text: string): Promise<void>;
  /** Writes one line to standard error. */
  err(line: string): void;
  /** The first line of standard input, without its line ending. */
  readStdinLine(prompt: string): Promise<string>;
  env: Readonly<Record<string, string | undefined>>;
  /**
   * How the user runs this CLI from the shell that started it, for the commands it prints as hints
   * (`npx outcome-tracker` through npm, `outcome-tracker` from a global install); default the latter.
   */
  invocation?: string;
  /** Where `serve` writes its structured log; without one it goes through `err`, a line at a time. */
  logDestination?(): { stream: DestinationStream; flush(): Promise<void> };
  /** Opens (with `create`, creates when missing) the database: a SQLite file or a postgres:// URL. */
  openDatabase(filename: string, options: { create: boolean }): Promise<OpenedDatabase>;
}
