import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  boundTo,
  deallocate,
  maxBoundPerConnection,
  writtenIn,
} from '../../src/adapters/postgres/account-bound.js';
import { postgresStorage } from '../../src/adapters/postgres/index.js';
import { prepared } from '../../src/adapters/postgres/prepared.js';
import { createTracker, projects, tenancy } from '../../src/core/index.js';
import { createIssueRequest } from '../support/issue-request.js';
import { observeClients } from '../support/observed-pool.js';
import {
  describeOnPostgres,
  dropSchema,
  freshSchema,
  onCitus,
  requireDatabaseUrl,
} from '../support/postgres.js';

it('writes the account in and numbers the parameters after it one lower', () => {
  expect(writtenIn('SELECT $1, $2, $3 WHERE a = $2 AND b = $12', 2, 'acct_x')).toBe(
    "SELECT $1, 'acct_x', $2 WHERE a = 'acct_x' AND b = $11",
  );
});

it('refuses to mark a statement that quotes a $n as bound to its account', () => {
  expect(() => prepared("SELECT '$1' WHERE a = $1", { accountParam: 1 })).toThrow(/quotes a \$n/);
  expect(prepared("SELECT '$1' WHERE a = $1").accountParam).toBeUndefined();
});

describeOnPostgres('statements bound to their account', () => {
  let client: pg.Client;
  beforeAll(async () => {
    client = new pg.Client({ connectionString: requireDatabaseUrl() });
    await client.connect();
  });
  afterAll(async () => {
    await client.end();
  });

  const statement = prepared('SELECT $1::text AS hash, $2::text AS account, $3::int AS n', {
    accountParam: 2,
  });
  const prepares = async () =>
    Number((await client.query('SELECT count(*) AS n FROM pg_prepared_statements')).rows[0].n);

  it('keeps a bounded number per connection, deallocating the least recently used', async () => {
    const client_ = client as unknown as pg.PoolClient;
    const run = async (account: string, n: number) => {
      const sent = boundTo(client_, statement, ['h', account, n]);
      if (sent.evicted !== undefined) void deallocate(client_, sent.evicted);
      const { rows } = await client.query({
        name: sent.sql.name,
        text: sent.sql.text,
        values: [...sent.params],
      });
      return rows[0];
    };
    expect(await run('acct_0', 1)).toEqual({ hash: 'h', account: 'acct_0', n: 1 });
    for (let i = 0; i < maxBoundPerConnection + 8; i++) await run(`acct_${i}`, i);
    expect(await prepares()).toBe(maxBoundPerConnection);
    // Evicted, then used again: prepared anew under the same name.
    expect(await run('acct_0', 7)).toEqual({ hash: 'h', account: 'acct_0', n: 7 });
    expect(await prepares()).toBe(maxBoundPerConnection);
  });

  it('leaves a value that is not an account id a parameter', () => {
    const sent = boundTo(client as unknown as pg.PoolClient, statement, ['h', "x' OR '1'='1", 1]);
    expect(sent.sql).toBe(statement);
    expect(sent.params).toEqual(['h', "x' OR '1'='1", 1]);
  });
});

describeOnPostgres('the storage binds statements on a distributed schema only', () => {
  const schema = freshSchema();
  const pool = new pg.Pool({
    connectionString: requireDatabaseUrl(),
    max: 2,
    pipeline: true,
  } as pg.PoolConfig);
  // The prepared statements' texts the storage's clients send.
  const preparedTexts: string[] = [];
  observeClients(pool, (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      const config = args[0] as { name?: string; text?: string };
      if (typeof config === 'object' && config.name !== undefined) preparedTexts.push(String(config.text));
      return query(...args);
    };
  });
  const storage = postgresStorage({ pool, schema });
  afterAll(async () => {
    await storage.close();
    await dropSchema(schema);
    await pool.end();
  });

  it('answers creates and reads alike, with the account written in on Citus', async () => {
    await storage.ready();
    const tracker = createTracker({ storage, rateLimit: false });
    const init = await storage.transaction((tx) =>
      tenancy.initWorkspace(
        { tx, ids: tracker.ids, now: Date.now() },
        { slug: 'bound', adminEmail: 'b@example.com' },
      ),
    );
    const project = await tracker.run({ workspaceSlug: 'bound' }, (ctx) =>
      projects.create(ctx, { name: 'Bound' }),
    );
    for (let i = 1; i <= 3; i++) {
      const created = await tracker.handle(
        createIssueRequest(init.token, { projectId: project.id, title: `Bound ${i}` }),
      );
      expect(created.status).toBe(201);
      const { id } = JSON.parse(String(created.body)) as { id: string };
      const read = await tracker.handle({
        method: 'GET',
        path: `/api/v1/issues/${id}`,
        headers: { authorization: `Bearer ${init.token}` },
      });
      expect(read.status).toBe(200);
      expect((JSON.parse(String(read.body)) as { number: number }).number).toBe(i);
    }
    const written = preparedTexts.filter((text) => text.includes(`'${init.accountId}'`));
    if (onCitus) {
      // The grant (with and without its row), the project read with it, the drawn sequence.
      expect(written.some((text) => text.includes('FROM tokens t'))).toBe(true);
      expect(written.some((text) => text.startsWith('WITH drawn'))).toBe(true);
    } else expect(written).toEqual([]);
  });
});
