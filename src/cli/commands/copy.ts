import { z } from 'zod';
import { type CopyProgress, copyStorage, TargetNotEmpty } from '../../core/copy.js';
import { dumpTables } from '../../core/families/dump-tables.js';
import { commonFlags, commonOptions, databaseTarget, defineCommand } from '../command.js';
import { withDatabase } from '../database.js';
import { CliError } from '../errors.js';
import type { CliIo } from '../io.js';
import { table } from '../views.js';

/** Rows between two progress lines of one table: a large copy shows it is moving. */
const progressEvery = 10_000;

export const command = defineCommand({
  flags: {
    from: {
      type: 'string',
      value: '<db>',
      description: 'The database to copy: a SQLite file or a postgres:// URL',
    },
    to: {
      type: 'string',
      value: '<db>',
      description: 'The empty database to fill: a SQLite file (created when missing) or a postgres:// URL',
    },
    json: commonFlags.json,
  },
  schema: z.strictObject({ from: databaseTarget, to: databaseTarget, json: commonOptions.json }),
  notes: [
    'Copies every row (ids, keys, issue numbers and their counters, signal sequences, token hashes,',
    'webhook secrets, admin sessions, idempotency records, pending deliveries) into a database that',
    'holds nothing yet, in one transaction: a failed copy leaves the target empty. Stop the servers',
    'on the source first, then point serve at the target. Progress goes to standard error.',
  ],
  async run(input, io) {
    const result = await withDatabase(io, input.from, { create: false }, (source) =>
      withDatabase(io, input.to, { create: true }, async (target) => {
        if (source.path === target.path) throw new CliError('--from and --to name the same database');
        try {
          const copied = await copyStorage(source.storage, target.storage, {
            onProgress: progressPrinter(io, input.json),
          });
          return { from: source.path, to: target.path, ...copied };
        } catch (error) {
          if (!(error instanceof TargetNotEmpty)) throw error;
          throw new CliError(
            `${target.path} is not empty (it has ${error.table}): copy only fills an empty database; ` +
              'give a new file or an empty PostgreSQL database or schema',
          );
        }
      }),
    );
    const rows = dumpTables.reduce((sum, name) => sum + result.tables[name], 0);
    if (input.json) return io.out(JSON.stringify({ ...result, rows }));
    for (const line of table(
      ['TABLE', 'ROWS'],
      dumpTables.map((name) => [name, String(result.tables[name])]),
    )) {
      io.out(line);
    }
    io.out(`Copied ${rowCount(rows)} from ${result.from} to ${result.to}.`);
    io.out(
      `Signals continue after sequence ${result.latestSequence}. Serve it: outcome-tracker serve --db <to>`,
    );
  },
});

/** Prints a line when a table is done (if it had rows) and every `progressEvery` rows of a large one. */
function progressPrinter(io: CliIo, json: boolean): (progress: CopyProgress) => void {
  let printedAt = 0;
  return ({ table: name, copied, done }) => {
    if (!done && copied - printedAt < progressEvery) return;
    printedAt = done ? 0 : copied;
    if (done && copied === 0) return;
    io.err(
      json
        ? JSON.stringify({ table: name, copied, done })
        : `${name}: ${rowCount(copied)}${done ? ', done' : '…'}`,
    );
  };
}

/** "1 row", "2 rows". */
const rowCount = (count: number) => `${count} ${count === 1 ? 'row' : 'rows'}`;
