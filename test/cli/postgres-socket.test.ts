import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeOnPostgres, dropSchema, freshSchema, testDatabaseUrl } from '../support/postgres.js';
import { assertBuilt, runCli, runJson, tempDir } from './process.js';

beforeAll(assertBuilt);

/** The server's first Unix socket directory, or null when it listens on none. */
async function socketDirectory(url: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ unix_socket_directories: string }>('SHOW unix_socket_directories');
    return rows[0]?.unix_socket_directories.split(',')[0]?.trim() || null;
  } finally {
    await client.end();
  }
}

/**
 * A PostgreSQL on the same machine is reached through its Unix socket with libpq's URL form,
 * `postgres://user@/db?host=<socket directory>` (no host before the path): the URL the README's
 * operations guide gives for it. A WHATWG URL parser refuses a user before an empty host, which the
 * CLI used to answer with "Invalid URL".
 */
describeOnPostgres('--db through a Unix socket', () => {
  const schema = freshSchema();
  let socketUrl = '';
  beforeAll(async () => {
    const url = new URL(testDatabaseUrl as string);
    const directory = await socketDirectory(url.toString());
    if (!directory) throw new Error('the test PostgreSQL listens on no Unix socket');
    const user = url.username || 'postgres';
    socketUrl = `postgres://${user}@${url.pathname}?host=${encodeURIComponent(directory)}&schema=${schema}`;
  });
  afterAll(() => dropSchema(schema));

  it('init and tokens list take the libpq form with no host and a socket directory', async () => {
    const cwd = tempDir();
    const init = await runCli(['init', '--workspace', 'acme', '--admin-email', 'a@b.c', '--db', socketUrl], {
      cwd,
    });
    expect(init.stderr).toBe('');
    expect(init.code).toBe(0);
    const tokens = await runJson(['tokens', 'list', '--workspace', 'acme', '--db', socketUrl], {
      cwd,
    });
    expect(tokens.data).toHaveLength(1);
    // The tables are in the schema the URL named, on the server the TCP URL reaches too.
    const client = new pg.Client({ connectionString: testDatabaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query(`SELECT count(*)::int AS n FROM "${schema}".workspaces`);
      expect(rows[0].n).toBe(1);
    } finally {
      await client.end();
    }
  });
});
