import { createReadStream, existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { z } from 'zod';
import {
  formatNeedsProject,
  formatSource,
  type ImportFormat,
  importFormatHelp,
  importFormats,
  sniffFormat,
} from '../../core/transfer/formats.js';
import type { NumberedLine } from '../../core/transfer/import-jsonl.js';
import {
  describeProblem,
  type ImportProgress,
  type ImportReport,
  ImportWriteFailed,
  runImport,
} from '../../core/transfer/import-run.js';
import { commonFlags, commonOptions, defineCommand, workspaceFlag } from '../command.js';
import { withDatabase } from '../database.js';
import { CliError, UsageError } from '../errors.js';
import type { CliIo } from '../io.js';

/** Records between two progress lines. */
const progressEvery = 10_000;

/** The file's lines, numbered from 1, read as a stream (a file of a million lines is not held). */
async function* fileLines(path: string): AsyncIterable<NumberedLine> {
  const lines = createInterface({ input: createReadStream(path), crlfDelay: Number.POSITIVE_INFINITY });
  let line = 0;
  for await (const text of lines) yield { line: ++line, text };
}

async function firstLine(path: string): Promise<string> {
  for await (const { text } of fileLines(path)) return text;
  return '';
}

export const command = defineCommand({
  flags: {
    workspace: workspaceFlag('The workspace to import into'),
    from: { type: 'string', value: '<file>', description: 'The file to import' },
    format: {
      type: 'string',
      value: `<auto|${importFormats.join('|')}>`,
      description: 'What the file is (default: auto, told from its name and first line)',
    },
    project: {
      type: 'string',
      value: '<KEY>',
      description: 'The project issues of another tracker go into (created when missing)',
    },
    dryRun: { type: 'boolean', description: 'Report what would be created and every problem; write nothing' },
    quietEvents: {
      type: 'boolean',
      description: 'Write no signals: no webhook delivery and no event stream hears of the import',
    },
    ...commonFlags,
  },
  schema: z.strictObject({
    workspace: z.string().min(1, 'must not be empty'),
    from: z.string().min(1, 'must not be empty'),
    format: z.enum(['auto', ...importFormats]).default('auto'),
    project: z.string().min(1, 'must not be empty').optional(),
    dryRun: z.boolean().default(false),
    quietEvents: z.boolean().default(false),
    ...commonOptions,
  }),
  notes: [
    'Idempotent: a record keeps its id (jsonl), or an issue keeps where it came from (other formats:',
    'external source and id), which a second run finds, so it creates nothing; a run after a failure',
    'picks up after the last batch written. The whole file is checked first: when a record is wrong, every problem is printed',
    "as file:line: field: message and nothing is written. Creates go through the API's operations, so",
    'signals and webhook deliveries follow, unless --quiet-events. Mappings: docs/import.md.',
  ],
  async run(input, io) {
    if (!existsSync(input.from)) throw new CliError(`no file ${input.from}`);
    const format =
      input.format === 'auto' ? sniffFormat(input.from, await firstLine(input.from)) : input.format;
    if (format === null) {
      throw new CliError(
        [
          `cannot tell the format of ${input.from}: give --format ${importFormats.join('|')}. The files import reads:`,
          ...importFormatHelp.map((line) => `  ${line}`),
        ].join('\n'),
      );
    }
    if (formatNeedsProject(format) && input.project === undefined) {
      // A missing flag is a usage error, as for every command (exit 2).
      throw new UsageError(
        `missing required flag --project: --project <KEY> is needed to import ${format} issues, they go into that project`,
      );
    }
    const source = formatSource(format, {
      file: input.from,
      lines: () => fileLines(input.from),
      ...(input.project !== undefined ? { project: input.project } : {}),
    });
    let report: ImportReport;
    try {
      report = await withDatabase(io, input.db, { create: false }, ({ storage }) =>
        runImport(storage, source, {
          workspace: input.workspace,
          file: input.from,
          dryRun: input.dryRun,
          quietEvents: input.quietEvents,
          onProgress: progressPrinter(io, input.json),
        }),
      );
    } catch (error) {
      if (!(error instanceof ImportWriteFailed)) throw error;
      throw new CliError(
        error.resumable
          ? `${error.message}; what was written before it stays: run the import again to go on`
          : `${error.message}; what was written before it stays, and a new run would be refused here again: fix the cause first`,
      );
    }
    printReport(io, format, report, input.json);
    if (report.problems.length > 0) {
      const n = report.problems.length;
      throw new CliError(`${n} problem${n === 1 ? '' : 's'} in ${input.from}: nothing was written`);
    }
  },
});

function printReport(io: CliIo, format: ImportFormat, report: ImportReport, json: boolean): void {
  for (const problem of report.problems) io.err(describeProblem(problem));
  if (json) {
    io.out(JSON.stringify({ format, ...report }));
    return;
  }
  const list = (counts: Record<string, number>) =>
    Object.entries(counts)
      .map(([family, n]) => `${n} ${family}`)
      .join(', ') || 'nothing';
  const verb = report.dryRun ? 'Would create' : 'Created';
  io.out(`${verb} ${list(report.created)}; already there: ${list(report.existing)}.`);
}

function progressPrinter(io: CliIo, json: boolean): (progress: ImportProgress) => void {
  let printedAt = 0;
  let phase: ImportProgress['phase'] | null = null;
  return (progress) => {
    if (progress.phase !== phase) printedAt = 0;
    phase = progress.phase;
    if (progress.read - printedAt < progressEvery) return;
    printedAt = progress.read;
    io.err(json ? JSON.stringify(progress) : `${progress.phase}: ${progress.read} records…`);
  };
}
