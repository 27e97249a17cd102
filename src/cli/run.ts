import { readFileSync } from 'node:fs';
import { ApiError } from '../core/errors.js';
import { parseCommandLine, synopsis, usage } from './command.js';
import { type CommandEntry, commandTable } from './commands/index.js';
import { CliError, UsageError } from './errors.js';
import type { CliIo } from './io.js';

/** The overview `outcome-tracker --help` prints. */
export function overview(): string {
  const width = Math.max(...commandTable.map((entry) => entry.name.length));
  return [
    'Usage: outcome-tracker <command> [flags]',
    '',
    'Commands:',
    ...commandTable.map((entry) => `  ${entry.name.padEnd(width)}  ${entry.summary}`),
    '',
    'Every command takes --db <file|url>, a SQLite file or a postgres:// URL (default: $OUTCOME_TRACKER_DB,',
    'else a postgres:// $DATABASE_URL, else ./data/tracker.db), and --json (print one JSON object).',
    '"outcome-tracker <command> --help" describes a command; "outcome-tracker --version" prints the',
    'version. Exit codes: 0 done, 1 failed, 2 usage error.',
  ].join('\n');
}

/** The command the arguments name (one or two words), and the arguments after its name. */
function findCommand(argv: readonly string[]): { entry: CommandEntry; rest: string[] } | null {
  for (const words of [2, 1]) {
    const name = argv.slice(0, words).join(' ');
    const entry = commandTable.find((e) => e.name === name);
    if (entry && argv.length >= words) return { entry, rest: argv.slice(words) };
  }
  return null;
}

const isHelp = (arg: string | undefined) => arg === '--help' || arg === '-h' || arg === 'help';

/** The commands of a group such as `tokens`, one per line, aligned. */
function groupLines(group: readonly CommandEntry[]): string[] {
  const width = Math.max(...group.map((entry) => entry.name.length));
  return group.map((entry) => `  outcome-tracker ${entry.name.padEnd(width)}  ${entry.summary}`);
}

/** The version in package.json, which sits two directories above this module in src/ and in dist/. */
function version(): string {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
  return String(manifest.version);
}

/** Runs the CLI on the given arguments and returns the exit code: 0 done, 1 failed, 2 usage error. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  if (argv.length === 0) {
    io.err(overview());
    return 2;
  }
  if (argv[0] === '--version') {
    io.out(`outcome-tracker ${version()}`);
    return 0;
  }
  // `help <command>` is `<command> --help`.
  if (argv[0] === 'help' && argv.length > 1) return runCli([...argv.slice(1), '--help'], io);
  const found = findCommand(argv);
  if (!found) {
    if (isHelp(argv[0])) {
      io.out(overview());
      return 0;
    }
    const group = commandTable.filter((e) => e.name.startsWith(`${argv[0]} `));
    if (group.length > 0) {
      // `tokens --help` lists the group's commands; `tokens` alone or `tokens frob` is a usage error.
      if (isHelp(argv[1])) {
        io.out(`Commands of outcome-tracker ${argv[0]}:`);
        for (const line of groupLines(group)) io.out(line);
        return 0;
      }
      const wanted = argv[1] === undefined ? '' : ` "${argv[1]}"`;
      io.err(`outcome-tracker: unknown ${argv[0]} command${wanted}; one of:`);
      for (const line of groupLines(group)) io.err(line);
      return 2;
    }
    io.err(`outcome-tracker: unknown command "${argv[0]}"\n\n${overview()}`);
    return 2;
  }

  const { entry, rest } = found;
  try {
    const command = await entry.load();
    try {
      const input = parseCommandLine(command, rest, io.env);
      if (input === 'help') {
        io.out(usage(entry.name, entry.summary, command));
        return 0;
      }
      await command.run(input, io);
      return 0;
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      io.err(`outcome-tracker ${entry.name}: ${error.message}`);
      io.err(`Usage: ${synopsis(entry.name, command)}`);
      io.err(`Run "outcome-tracker ${entry.name} --help" for details.`);
      return 2;
    }
  } catch (error) {
    io.err(`outcome-tracker ${entry.name}: ${describeFailure(error)}`);
    return 1;
  }
}

/** One line for a failure: the message the user can act on, without a stack trace. */
function describeFailure(error: unknown): string {
  if (error instanceof CliError) return error.message;
  if (error instanceof ApiError) return error.detail;
  if (error instanceof Error) return error.message.split('\n')[0] ?? error.name;
  return String(error);
}
