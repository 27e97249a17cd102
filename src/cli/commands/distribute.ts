import { z } from 'zod';
import { commonFlags, commonOptions, defineCommand } from '../command.js';
import { databasePath, isPostgresUrl, loadPostgres } from '../database.js';
import { CliError } from '../errors.js';

export const command = defineCommand({
  flags: {
    db: {
      type: 'string',
      value: '<url>',
      description: 'The Citus coordinator: a postgres:// URL (?schema=name for a schema other than public)',
    },
    shardCount: {
      type: 'string',
      value: '<n>',
      description: "Shards of each distributed table (default: the cluster's citus.shard_count)",
    },
    json: commonFlags.json,
  },
  schema: z.strictObject({
    db: commonOptions.db,
    shardCount: z.coerce.number().int().min(1).max(64_000).optional(),
    json: commonOptions.json,
  }),
  notes: [
    'Creates the schema on a Citus coordinator (as serve would) and distributes every table by its',
    'account: the tenant tables colocated with accounts, the shared ones as reference tables, the',
    'rate limit by its key. Idempotent: a table that has its kind is left as it is. Later versions',
    'keep the schema distributed by themselves when they migrate it. Refuses a database that is not',
    'a Citus coordinator, changing nothing. See docs/scaling.md.',
  ],
  async run(input, io) {
    const target = databasePath(input.db, io.env);
    if (!isPostgresUrl(target)) {
      throw new CliError(`distribute needs a postgres:// URL of a Citus coordinator, not ${target}`);
    }
    const { distributeDatabase } = await loadPostgres(() => import('../postgres-distribute.js'));
    const shardCount = input.shardCount;
    const report = await distributeDatabase(target, shardCount === undefined ? {} : { shardCount });
    if (input.json) return io.out(JSON.stringify(report));
    if (report.created) io.out(`Created the schema ${report.schema} on ${report.db}.`);
    for (const { table, kind } of report.changed) {
      io.out(`${table}: ${kind === 'reference' ? 'reference table' : `distributed (${kind})`}`);
    }
    for (const name of report.functions) io.out(`${name}: runs where its key's rows are`);
    io.out(
      report.changed.length === 0 && report.functions.length === 0
        ? `Nothing to do: all ${report.unchanged.length} tables of ${report.schema} are distributed already (Citus ${report.citusVersion}).`
        : `Distributed ${report.changed.length} tables of ${report.schema} (${report.unchanged.length} already were) on Citus ${report.citusVersion}.`,
    );
    if (report.created) {
      io.out(
        'Next: outcome-tracker init --db <url> --workspace <slug> --admin-email <email>, then serve --db <url>.',
      );
    }
  },
});
