import { z } from 'zod';
import { type ExportProgress, exportWorkspace } from '../../core/transfer/export.js';
import { commonFlags, commonOptions, defineCommand, workspaceFlag } from '../command.js';
import { withDatabase } from '../database.js';
import type { CliIo } from '../io.js';
import { lineSink } from '../output.js';

/** Records between two progress lines of one family: a large export shows it is moving. */
const progressEvery = 10_000;

export const command = defineCommand({
  flags: {
    workspace: workspaceFlag('The workspace to export'),
    out: { type: 'string', value: '<file>', description: 'Write to this file (default: standard output)' },
    ...commonFlags,
  },
  schema: z.strictObject({
    workspace: z.string().min(1, 'must not be empty'),
    out: z.string().min(1, 'must not be empty').optional(),
    ...commonOptions,
  }),
  notes: [
    'Writes the workspace as JSON Lines: a header with the format version, one line per member (by',
    'email), project, outcome, context item, decision, issue and time entry, with ids, keys, numbers',
    'and timestamps as stored, and a trailer with the counts (docs/export.md). Never token hashes,',
    'passwords or webhook secrets. Memory stays flat however large the workspace; progress goes to',
    'standard error. "outcome-tracker import --format jsonl" reads it back.',
  ],
  async run(input, io) {
    const sink = lineSink(io, input.out);
    let result: Awaited<ReturnType<typeof exportWorkspace>>;
    try {
      result = await withDatabase(io, input.db, { create: false }, ({ storage }) =>
        exportWorkspace(storage, input.workspace, (line) => sink.write(line), {
          onProgress: progressPrinter(io, input.json),
        }),
      );
    } finally {
      await sink.close();
    }
    const total = Object.values(result.counts).reduce((a, b) => a + b, 0);
    const summary = Object.entries(result.counts)
      .map(([family, n]) => `${n} ${family}`)
      .join(', ');
    // The records take standard output unless they go to a file: the summary then goes there.
    const say = input.out === undefined ? io.err : io.out;
    say(
      input.json
        ? JSON.stringify({ out: input.out ?? null, counts: result.counts, records: total })
        : `Exported ${total} records (${summary}).`,
    );
  },
});

/** A line when a family is done (if it had records) and every `progressEvery` records of a large one. */
function progressPrinter(io: CliIo, json: boolean): (progress: ExportProgress) => void {
  let printedAt = 0;
  return ({ family, written, done }) => {
    if (!done && written - printedAt < progressEvery) return;
    printedAt = done ? 0 : written;
    if (done && written === 0) return;
    io.err(
      json
        ? JSON.stringify({ family, written, done })
        : `${family}: ${written} records${done ? ', done' : '…'}`,
    );
  };
}
