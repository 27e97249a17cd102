import pg from 'pg';
import {
  type DistributionReport,
  distributeSchema,
  NotACitusCoordinator,
  refuseUnlessCoordinator,
} from '../adapters/postgres/distribute.js';
import { postgresStorage } from '../adapters/postgres/index.js';
import { CliError } from './errors.js';
import { parsePostgresTarget, redactPassword } from './postgres-database.js';

/**
 * `distribute`'s work on PostgreSQL: refuses a database that is not a Citus coordinator before
 * anything is written, then creates (migrates) the schema and gives every table its kind.
 */
export async function distributeDatabase(
  target: string,
  options: { shardCount?: number },
): Promise<DistributionReport & { db: string; created: boolean }> {
  const shown = redactPassword(target);
  const { connectionString, schema } = parsePostgresTarget(target);
  const client = new pg.Client({ connectionString });
  try {
    await client.connect();
  } catch (error) {
    throw new CliError(`cannot open ${shown}: ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    // Checked first: a plain PostgreSQL database must not be left with a schema it was not asked for.
    try {
      await refuseUnlessCoordinator(client);
    } catch (error) {
      if (error instanceof NotACitusCoordinator) throw new CliError(`${shown} is ${error.message}`);
      throw error;
    }
    // The command distributes (below), so that its report names every table it gave a kind.
    const storage = postgresStorage({ connectionString, schema, poolMax: 1, distribute: false });
    let created: boolean;
    try {
      ({ created } = await storage.ready());
    } finally {
      await storage.close();
    }
    const report = await distributeSchema(client, schema, options);
    return { db: shown, created, ...report };
  } finally {
    await client.end().catch(() => {});
  }
}
