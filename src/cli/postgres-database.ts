import pg from 'pg';
import { postgresStorage } from '../adapters/postgres/index.js';
import { CliError } from './errors.js';
import type { OpenedDatabase } from './io.js';

/** A user before an empty host, as in libpq's `postgres://user@/db?host=/run/postgresql` (a Unix socket). */
const userBeforeEmptyHost = /^(postgres(?:ql)?:\/\/[^@/?#]*)@(?=[/?#]|$)/i;
/** What stands in for the empty host while the URL is edited (a WHATWG URL with a user needs a host). */
const emptyHost = 'empty-host.invalid';

/** Edits a PostgreSQL URL as a WHATWG URL, keeping the libpq forms the driver reads (an empty host). */
function editUrl(target: string, edit: (url: URL) => void): string {
  const hostless = userBeforeEmptyHost.test(target);
  const url = new URL(hostless ? target.replace(userBeforeEmptyHost, `$1@${emptyHost}`) : target);
  edit(url);
  const edited = url.toString();
  return hostless ? edited.replace(`@${emptyHost}`, '@') : edited;
}

/**
 * Splits the CLI's PostgreSQL URL: an optional `schema` query parameter (default `public`)
 * chooses where the tables live; the rest goes to the driver as it is.
 */
export function parsePostgresTarget(target: string): { connectionString: string; schema: string } {
  let schema = 'public';
  const connectionString = editUrl(target, (url) => {
    schema = url.searchParams.get('schema') || 'public';
    url.searchParams.delete('schema');
  });
  return { connectionString, schema };
}

/** The URL as the operator may see it printed: without its password. */
export function redactPassword(target: string): string {
  return editUrl(target, (url) => {
    if (url.password) url.password = '***';
  });
}

/** Whether the schema already holds an outcome-tracker database (its migrations table). */
async function schemaExists(connectionString: string, schema: string): Promise<boolean> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    const { rows } = await client.query<{ found: string | null }>('SELECT to_regclass($1) AS found', [
      `"${schema.replaceAll('"', '""')}".schema_migrations`,
    ]);
    return rows[0]?.found != null;
  } finally {
    await client.end();
  }
}

/**
 * Opens a PostgreSQL database for a command. Only `init` and `serve` create the schema: for the
 * others a database without one is a mistake in `--db`, reported rather than filled with tables.
 * `created` is true for the one process that created the schema, however many start at once.
 */
export async function openPostgresDatabase(
  target: string,
  options: { create: boolean },
): Promise<OpenedDatabase> {
  const shown = redactPassword(target);
  const { connectionString, schema } = parsePostgresTarget(target);
  try {
    if (!options.create && !(await schemaExists(connectionString, schema))) {
      throw new CliError(
        `no outcome-tracker database at ${shown} (schema ${schema}): run "outcome-tracker init" or "outcome-tracker serve" first, or pass --db`,
      );
    }
    const storage = postgresStorage({ connectionString, schema });
    try {
      const { created } = await storage.ready();
      return { storage, path: shown, created };
    } catch (error) {
      await storage.close();
      throw error;
    }
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(`cannot open ${shown}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
