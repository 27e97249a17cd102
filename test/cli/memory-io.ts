import { memoryStorage } from '../../src/adapters/memory/index.js';
import { CliError } from '../../src/cli/errors.js';
import type { CliIo } from '../../src/cli/io.js';
import { runCli } from '../../src/cli/run.js';
import type { Storage } from '../../src/core/index.js';

/** The CLI run in-process over in-memory "files": one memoryStorage per filename, kept across commands. */
export interface MemoryCli {
  /** Runs one command line; resolves to its exit code and what it printed. */
  run(
    argv: readonly string[],
    options?: { stdin?: string },
  ): Promise<{ code: number; stdout: string[]; stderr: string[] }>;
  /** The storage behind a filename, to check what a command wrote. */
  storage(filename: string): Storage;
}

export function memoryCli(env: Record<string, string | undefined> = {}): MemoryCli {
  const files = new Map<string, Storage>();
  return {
    async run(argv, options = {}) {
      const stdout: string[] = [];
      const stderr: string[] = [];
      const io: CliIo = {
        out: (line) => stdout.push(line),
        err: (line) => stderr.push(line),
        readStdinLine: async () => (options.stdin ?? '').split('\n')[0] ?? '',
        env,
        async openDatabase(filename, { create }) {
          const existing = files.get(filename);
          if (!existing && !create) throw new CliError(`no database at ${filename}`);
          const storage = existing ?? memoryStorage();
          files.set(filename, storage);
          // Commands close their database when done; the "file" must outlive them.
          return { storage: { ...storage, close: async () => {} }, path: filename, created: !existing };
        },
      };
      const code = await runCli(argv, io);
      return { code, stdout, stderr };
    },
    storage(filename) {
      const storage = files.get(filename);
      if (!storage) throw new Error(`no database ${filename}`);
      return storage;
    },
  };
}
