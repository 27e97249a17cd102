import { parseArgs } from 'node:util';
import { z } from 'zod';
import { unknownSchemeProblem } from './database-target.js';
import { UsageError } from './errors.js';
import type { CliIo } from './io.js';

/** One command-line flag, named in camelCase here and spelled in kebab-case on the command line. */
export interface Flag {
  type: 'string' | 'boolean';
  /** Placeholder shown in the usage, e.g. `<slug>`. */
  value?: string;
  description: string;
  /** Environment variables that set the flag when it is not given, first found wins. */
  env?: readonly string[];
  /** Said after "missing required flag": where its value comes from (`make one with …`). */
  whenMissing?: string;
}

/** The flags every command takes. */
export const commonFlags = {
  db: {
    type: 'string',
    value: '<file|url>',
    description:
      'SQLite database file, or a postgres:// URL (default: $OUTCOME_TRACKER_DB, else a postgres:// $DATABASE_URL, else ./data/tracker.db)',
  },
  json: { type: 'boolean', description: 'Print one JSON object on stdout' },
} as const satisfies Record<string, Flag>;

/** The --workspace flag of a command that acts in one workspace, named by its slug. */
export const workspaceFlag = (description: string) =>
  ({ type: 'string', value: '<slug>', description }) as const satisfies Flag;

/** A database target: a SQLite file path (or `file:` URL), or a postgres:// URL. */
export const databaseTarget = z
  .string()
  .min(1, 'must not be empty')
  .superRefine((target, context) => {
    const problem = unknownSchemeProblem(target);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  });

/** The schema of the common flags, spread into every command's schema. */
export const commonOptions = {
  db: databaseTarget.optional(),
  json: z.boolean().default(false),
};

/** A command: its flags and positionals, the schema its parsed input must satisfy, and what it does. */
export interface Command<Schema extends z.ZodObject = z.ZodObject> {
  /** Positional arguments in order, named as in the schema. */
  positionals?: readonly string[];
  flags: Record<string, Flag>;
  schema: Schema;
  /** Lines printed after the options in `--help`. */
  notes?: readonly string[];
  run(input: z.output<Schema>, io: CliIo): Promise<void>;
}

/**
 * An email address as a browser's `<input type="email">` takes it: the sign-in page's rule, so a
 * single-label domain such as the first-run admin's `admin@localhost` is accepted.
 */
export const emailAddress = z.email({ pattern: z.regexes.html5Email });

/** Declares a command, tying the type of `run`'s input to its schema. */
export const defineCommand = <Schema extends z.ZodObject>(command: Command<Schema>): Command<Schema> =>
  command;

const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
const camel = (name: string) => name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

const accepts = (schema: z.ZodType | undefined, value: unknown) =>
  schema === undefined || schema.safeParse(value).success;

/** Whether the flag must be given: its schema refuses a missing value. */
const isRequired = (command: Command, name: string) => !accepts(command.schema.shape[name], undefined);

/** Parses a command's arguments into its schema's output; `'help'` when `--help` was asked for. */
export function parseCommandLine<Schema extends z.ZodObject>(
  command: Command<Schema>,
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>> = {},
): z.output<Schema> | 'help' {
  const options: Record<string, { type: 'string' | 'boolean'; short?: string }> = {
    help: { type: 'boolean', short: 'h' },
  };
  for (const [name, flag] of Object.entries(command.flags)) options[kebab(name)] = { type: flag.type };
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: [...argv], options, strict: true, allowPositionals: true });
  } catch (error) {
    throw new UsageError(describeParseError(error));
  }
  if (parsed.values.help) return 'help';

  const names = command.positionals ?? [];
  if (parsed.positionals.length > names.length) {
    throw new UsageError(`unexpected argument "${parsed.positionals[names.length]}"`);
  }
  const raw: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(parsed.values)) raw[camel(name)] = value;
  names.forEach((name, i) => {
    raw[name] = parsed.positionals[i];
  });

  for (const name of names) {
    if (raw[name] === undefined) throw new UsageError(`missing argument <${name}>`);
  }
  // A flag not given takes its value from the environment; errors then name the variable.
  const fromEnv = new Map<string, string>();
  for (const [name, flag] of Object.entries(command.flags)) {
    if (raw[name] !== undefined) continue;
    const variable = flag.env?.find((v) => env[v] !== undefined && env[v] !== '');
    if (!variable) continue;
    const value = env[variable] ?? '';
    fromEnv.set(name, `${variable}=${value}`);
    raw[name] = flag.type === 'boolean' ? envBoolean(variable, value) : value;
  }
  for (const [name, flag] of Object.entries(command.flags)) {
    if (raw[name] === undefined && isRequired(command as Command, name)) {
      // A flag the environment can set says so: the variable is often the better place for it.
      const orEnv = flag.env?.length ? ` (or set ${flag.env.join(' or ')})` : '';
      throw new UsageError(
        `missing required flag --${kebab(name)}${orEnv}${flag.whenMissing ? `: ${flag.whenMissing}` : ''}`,
      );
    }
  }
  const result = command.schema.safeParse(raw);
  if (!result.success) {
    const issue = result.error.issues[0];
    const name = String(issue?.path[0] ?? '');
    const label = names.includes(name) ? `<${name}>` : (fromEnv.get(name) ?? `--${kebab(name)}`);
    throw new UsageError(`${label}: ${issue?.message ?? 'invalid value'}`);
  }
  return result.data;
}

/** A boolean flag's variable: 1/true/yes or 0/false/no. */
function envBoolean(variable: string, value: string): boolean {
  if (/^(1|true|yes|on)$/i.test(value)) return true;
  if (/^(0|false|no|off)$/i.test(value)) return false;
  throw new UsageError(`${variable}=${value}: expected 1, true, yes, 0, false or no`);
}

function describeParseError(error: unknown): string {
  const code = (error as { code?: string }).code;
  const message = error instanceof Error ? error.message : String(error);
  const option = /'(-[^']*)'/.exec(message)?.[1];
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option) return `unknown flag ${option}`;
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    const flag = /--([a-z-]+)/.exec(message)?.[0];
    if (flag && /argument missing/.test(message)) return `${flag} needs a value`;
    // `--rate-limit -5`: a value that looks like a flag must be attached with `=`.
    if (flag && /argument is ambiguous/.test(message)) {
      return `${flag} needs a value; to give one that starts with "-", write ${flag}=<value>`;
    }
    if (flag) return `${flag} takes no value`;
  }
  return message;
}

/** The one-line synopsis: required flags first, optional ones in brackets. */
export function synopsis(name: string, command: Command): string {
  const parts = [`outcome-tracker ${name}`];
  for (const positional of command.positionals ?? []) parts.push(`<${positional}>`);
  const optional: string[] = [];
  for (const [flagName, flag] of Object.entries(command.flags)) {
    const text = `--${kebab(flagName)}${flag.value ? ` ${flag.value}` : ''}`;
    if (isRequired(command, flagName)) parts.push(text);
    else optional.push(`[${text}]`);
  }
  return [...parts, ...optional].join(' ');
}

/** The full `--help` text of a command. */
export function usage(name: string, summary: string, command: Command): string {
  const rows = Object.entries(command.flags).map(([flagName, flag]) => [
    `--${kebab(flagName)}${flag.value ? ` ${flag.value}` : ''}`,
    flag.env?.length ? `${flag.description} [env: ${flag.env.join(', ')}]` : flag.description,
  ]);
  rows.push(['-h, --help', 'Show this help']);
  const width = Math.max(...rows.map(([left]) => (left ?? '').length));
  return [
    `Usage: ${synopsis(name, command)}`,
    '',
    summary,
    '',
    'Options:',
    ...rows.map(([left, right]) => `  ${(left ?? '').padEnd(width)}  ${right}`),
    ...(command.notes?.length ? ['', ...command.notes] : []),
  ].join('\n');
}
