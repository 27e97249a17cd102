import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { tableKinds } from '../../src/adapters/postgres/distribution.js';
import { type PostgresStorage, postgresStorage } from '../../src/adapters/postgres/index.js';
import { adminArea } from '../../src/admin/index.js';
import { createTracker, type Tracker, tenancy } from '../../src/core/index.js';
import { routeOf, tokenAccount } from '../../src/core/tenancy/token-format.js';
import { type ApiOptions, type ApiResponse, fakeClock, listen, newKey, request } from '../http/harness.js';
import { describeOnPostgres, dropSchema, freshSchema, requireDatabaseUrl } from '../support/postgres.js';

/**
 * A database made by the version before the account-distributed schema (migration 16), with
 * data in every table (test/fixtures/postgres/v16.sql, made by scripts/make-postgres-fixture.mjs
 * with that version's build), opened by this version: the migrations bring it to the new schema
 * in place, and through real HTTP everything is still there, old tokens still work, new tokens
 * carry their account's route, signals go on after the old ones per account, and every tenant
 * table's rows carry the account they belong to.
 */

const fixtureDir = join(import.meta.dirname, '..', 'fixtures', 'postgres');

interface FixtureData {
  projects: string[];
  outcome: string;
  issues: { id: string; key: string; labels: string[] }[];
  comment: string;
  decision: string;
  context: string;
  timeEntry: string;
}

interface Fixture {
  schemaVersion: number;
  madeUntil: string;
  accounts: Record<
    'acme' | 'globex',
    { accountId: string; workspaces: Record<string, string>; signals: { count: number; last: number } }
  >;
  users: Record<'ana' | 'bo' | 'gus', string>;
  tokens: Record<
    'acmeAdmin' | 'acmeRead' | 'labsAdmin' | 'globexAdmin' | 'boAcme' | 'boGlobexRead' | 'revoked',
    string
  >;
  sessionCookie: string;
  data: Record<'acme' | 'acme-labs' | 'globex', FixtureData>;
  webhooks: Record<'acme' | 'globex', { takes: string; refuses: string }>;
  idempotencyKeys: { tag: string; key: string; path: string; body: unknown; id: string }[];
  counts: Record<string, number>;
}

const fixture = JSON.parse(readFileSync(join(fixtureDir, 'v16.json'), 'utf8')) as Fixture;

/** The fixture's SQL for a schema of this name. */
const fixtureSql = (schema: string): string =>
  readFileSync(join(fixtureDir, 'v16.sql'), 'utf8').replaceAll('__SCHEMA__', `"${schema}"`);

describeOnPostgres('a PostgreSQL database made by the version before accounts keyed every table', () => {
  const schema = freshSchema();
  let storage: PostgresStorage;
  let tracker: Tracker;
  let server: Server;
  let base: string;
  let db: pg.Client;
  const api = (
    method: string,
    path: string,
    token: string,
    options: Omit<ApiOptions, 'token'> = {},
  ): Promise<ApiResponse> => request(base, method, `/api/v1${path}`, { token, ...options });

  beforeAll(async () => {
    db = new pg.Client({ connectionString: requireDatabaseUrl() });
    await db.connect();
    await db.query(fixtureSql(schema));
    await db.query(`SET search_path TO "${schema}"`);
    storage = postgresStorage({ connectionString: requireDatabaseUrl(), schema, poolMax: 4 });
    await storage.ready();
    tracker = createTracker({
      storage,
      // Just after the fixture was made: its session and idempotency keys are still live.
      clock: fakeClock(Date.parse(fixture.madeUntil) + 60_000),
      extensions: [adminArea()],
      rateLimit: false,
      onError: () => {},
    });
    const listening = await listen('node', tracker);
    server = listening.server;
    base = `http://127.0.0.1:${listening.port}`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => {
      if (!server) return resolve();
      server.close(() => resolve());
      server.closeAllConnections();
    });
    await tracker?.close();
    await storage?.close();
    await db?.end();
    await dropSchema(schema);
  });

  it('migrates the old schema in place, past the version that made it', async () => {
    expect(fixture.schemaVersion).toBe(16);
    const { rows } = await db.query('SELECT max(version)::int AS version FROM schema_migrations');
    expect(rows[0].version).toBeGreaterThanOrEqual(18);
  });

  it('keeps every table’s rows (none lost, none doubled)', async () => {
    for (const [table, count] of Object.entries(fixture.counts)) {
      // Rows the version after drops or rebuilds on purpose: the global purge mark (the
      // latest sequence lives in each account's row now) and per-key rate-limit windows.
      if (
        [
          'signal_purges',
          'rate_limits',
          'rate_limit_runs',
          'storage_time_shares',
          'schema_migrations',
        ].includes(table)
      ) {
        continue;
      }
      const { rows } = await db.query(`SELECT count(*)::int AS n FROM "${table}"`);
      expect({ table, rows: rows[0].n }).toEqual({ table, rows: count });
    }
  });

  it('serves every workspace’s data as before, to its old tokens, and nothing of another account', async () => {
    const tenants = [
      ['acme', fixture.tokens.acmeAdmin],
      ['acme-labs', fixture.tokens.labsAdmin],
      ['globex', fixture.tokens.globexAdmin],
    ] as const;
    for (const [slug, token] of tenants) {
      const data = fixture.data[slug];
      const projects = await api('GET', '/projects?limit=100', token);
      expect(projects.status).toBe(200);
      expect(projects.json.data.map((p: { id: string }) => p.id).sort()).toEqual([...data.projects].sort());

      const issues = await api('GET', '/issues?limit=200', token);
      const byId = new Map<string, { key: string; labels: string[] }>(
        issues.json.data.map((i: { id: string; key: string; labels: string[] }) => [i.id, i]),
      );
      for (const issue of data.issues) {
        expect(byId.get(issue.id)).toMatchObject({ key: issue.key, labels: issue.labels });
      }
      // Labels are still indexed: filtering by one finds the issues that carry it.
      const bugs = await api('GET', '/issues?labels=bug&limit=200', token);
      expect(bugs.json.data.map((i: { id: string }) => i.id).sort()).toEqual(
        data.issues
          .filter((i) => i.labels.includes('bug'))
          .map((i) => i.id)
          .sort(),
      );

      const [first, second, third, fourth] = data.issues as unknown as [
        { id: string },
        { id: string },
        { id: string },
        { id: string },
      ];
      const blocks = await api('GET', `/issues/${first.id}/relations`, token);
      expect(blocks.json.data).toEqual([expect.objectContaining({ type: 'blocks', issueId: second.id })]);
      const child = await api('GET', `/issues/${fourth.id}`, token);
      expect(child.json.parentId).toBe(third.id);

      expect((await api('GET', `/comments/${data.comment}`, token)).status).toBe(200);
      expect((await api('GET', `/comments?issueId=${first.id}`, token)).json.data).toHaveLength(1);
      expect((await api('GET', `/outcomes/${data.outcome}`, token)).json.id).toBe(data.outcome);
      expect((await api('GET', `/decisions/${data.decision}`, token)).status).toBe(200);
      expect((await api('GET', `/context/${data.context}`, token)).status).toBe(200);
      expect((await api('GET', `/time-entries/${data.timeEntry}`, token)).json.minutes).toBe(45);
    }
    // Another account's rows stay out of reach, whichever id a token names.
    const globexIssue = fixture.data.globex.issues[0]?.id as string;
    expect((await api('GET', `/issues/${globexIssue}`, fixture.tokens.acmeAdmin)).status).toBe(404);
    // And the same account's other workspace too.
    const labsIssue = fixture.data['acme-labs'].issues[0]?.id as string;
    expect((await api('GET', `/issues/${labsIssue}`, fixture.tokens.acmeAdmin)).status).toBe(404);
  });

  it('still accepts every token issued before, with its scope, and still refuses the revoked one', async () => {
    for (const token of [
      fixture.tokens.acmeAdmin,
      fixture.tokens.acmeRead,
      fixture.tokens.labsAdmin,
      fixture.tokens.globexAdmin,
      fixture.tokens.boAcme,
      fixture.tokens.boGlobexRead,
    ]) {
      expect(tokenAccount(token)).toBeNull(); // the old format: no route
      expect({ token, status: (await api('GET', '/projects', token)).status }).toEqual({
        token,
        status: 200,
      });
    }
    expect((await api('GET', '/projects', fixture.tokens.revoked)).status).toBe(401);
    // A read token still cannot write; the member's token writes in its own workspace.
    const projectId = fixture.data.globex.projects[0] as string;
    const refused = await api('POST', '/issues', fixture.tokens.boGlobexRead, {
      body: { projectId, title: 'Not allowed' },
      headers: { 'idempotency-key': newKey() },
    });
    expect(refused.status).toBe(403);
    const made = await api('POST', '/issues', fixture.tokens.boAcme, {
      body: { projectId: fixture.data.acme.projects[0], title: 'After the upgrade' },
      headers: { 'idempotency-key': newKey() },
    });
    expect(made.status).toBe(201);
  });

  it('answers an idempotency key of before the upgrade with the answer it stored', async () => {
    const stored = fixture.idempotencyKeys.find(
      (k) => k.tag === 'acme',
    ) as Fixture['idempotencyKeys'][number];
    // The answer as it was stored then, byte for byte (fields added since are not in it), so it
    // is read as it comes, not held to today's document as the suites' other answers are.
    const response = await fetch(`${base}/api/v1${stored.path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${fixture.tokens.acmeAdmin}`,
        'content-type': 'application/json',
        'idempotency-key': stored.key,
      },
      body: JSON.stringify(stored.body),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('idempotent-replayed')).toBe('true');
    expect(((await response.json()) as { id: string }).id).toBe(stored.id);
  });

  it('keeps the webhooks and their deliveries of each account', async () => {
    for (const tag of ['acme', 'globex'] as const) {
      const token = tag === 'acme' ? fixture.tokens.acmeAdmin : fixture.tokens.globexAdmin;
      const hooks = await api('GET', '/webhooks', token);
      expect(hooks.json.data.map((h: { id: string }) => h.id).sort()).toEqual(
        [fixture.webhooks[tag].takes, fixture.webhooks[tag].refuses].sort(),
      );
      const deliveries = await api('GET', `/webhooks/${fixture.webhooks[tag].refuses}/deliveries`, token);
      expect(deliveries.json.data.length).toBeGreaterThan(0);
    }
  });

  it('keeps the admin session of before the upgrade signed in', async () => {
    const page = await fetch(`${base}/acme/admin/api-tokens`, {
      headers: { cookie: fixture.sessionCookie },
      redirect: 'manual',
    });
    expect(page.status).toBe(200);
  });

  it('issues new tokens in the routed format, which work', async () => {
    const acme = fixture.accounts.acme;
    const issued = await storage.transaction((tx) =>
      tenancy.issueToken(
        { tx, ids: tracker.ids, now: tracker.clock.now() },
        {
          workspaceId: acme.workspaces.acme as string,
          userId: fixture.users.ana,
          name: 'new',
          scope: 'read',
        },
      ),
    );
    expect(issued.plain).toMatch(/^cn_[0-9A-Za-z]+_[0-9A-Za-z]{40}$/);
    expect(issued.plain.startsWith(`cn_${routeOf(acme.accountId)}_`)).toBe(true);
    expect(tokenAccount(issued.plain)).toBe(acme.accountId);
    expect((await api('GET', '/projects', issued.plain)).status).toBe(200);
  });

  it('goes on with each account’s signals after its old ones, in order', async () => {
    const signalsOf = async (token: string) => {
      const all: { id: string; sequence: number; type: string }[] = [];
      let cursor: string | null = null;
      do {
        const page = await api(
          'GET',
          `/signals?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
          token,
        );
        expect(page.status).toBe(200);
        all.push(...page.json.data);
        cursor = page.json.nextCursor;
      } while (cursor !== null);
      return all;
    };
    for (const tag of ['acme', 'globex'] as const) {
      const token = tag === 'acme' ? fixture.tokens.acmeAdmin : fixture.tokens.globexAdmin;
      const before = await signalsOf(token);
      const old = before.filter((s) => s.sequence <= fixture.accounts[tag].signals.last);
      expect(old).toHaveLength(fixture.accounts[tag].signals.count);
      const made = await api('POST', '/projects', token, {
        body: { name: `${tag} after the upgrade` },
        headers: { 'idempotency-key': newKey() },
      });
      expect(made.status).toBe(201);
      const after = await signalsOf(token);
      const sequences = after.map((s) => s.sequence);
      expect(sequences).toEqual([...sequences].sort((a, b) => a - b));
      expect(new Set(sequences).size).toBe(sequences.length);
      const newest = after.at(-1) as { sequence: number; type: string };
      expect(newest.type).toBe('project.created');
      expect(newest.sequence).toBeGreaterThan(fixture.accounts[tag].signals.last);
      expect(after.slice(0, before.length).map((s) => s.id)).toEqual(before.map((s) => s.id));
      // The account's row holds its latest sequence.
      const { rows } = await db.query('SELECT last_sequence::int AS last FROM accounts WHERE id = $1', [
        fixture.accounts[tag].accountId,
      ]);
      expect(rows[0].last).toBe(newest.sequence);
    }
  });

  it('gives every tenant table’s rows the account they belong to', async () => {
    const accounts = Object.values(fixture.accounts).map((a) => a.accountId);
    const columnsOf = async (table: string): Promise<Set<string>> => {
      const { rows } = await db.query(
        'SELECT column_name FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2',
        [schema, table],
      );
      return new Set(rows.map((r: { column_name: string }) => r.column_name));
    };
    for (const [table, kind] of Object.entries(tableKinds)) {
      if (kind.kind !== 'tenant' || table === 'accounts') continue;
      const columns = await columnsOf(table);
      expect({ table, hasAccountId: columns.has('account_id') }).toEqual({ table, hasAccountId: true });
      const { rows: wrong } = await db.query(
        `SELECT count(*)::int AS n FROM "${table}" WHERE account_id IS NULL OR NOT (account_id = ANY($1))`,
        [accounts],
      );
      expect({ table, withoutAnAccount: wrong[0].n }).toEqual({ table, withoutAnAccount: 0 });
      // Each row's account is its workspace's (or its subscription's, or its delivery's).
      const owner = columns.has('workspace_id')
        ? 'JOIN workspaces o ON o.id = t.workspace_id'
        : table === 'deliveries'
          ? 'JOIN webhooks o ON o.id = t.subscription_id'
          : table === 'delivery_attempts'
            ? 'JOIN deliveries o ON o.id = t.delivery_id'
            : undefined;
      if (owner === undefined) continue;
      const { rows: mismatched } = await db.query(
        `SELECT count(*)::int AS n FROM "${table}" t ${owner} WHERE o.account_id <> t.account_id`,
      );
      expect({ table, mismatched: mismatched[0].n }).toEqual({ table, mismatched: 0 });
    }
    // The signals of each account are still its own, as many as before (and the ones made since),
    // each row's account the one its event names.
    for (const account of Object.values(fixture.accounts)) {
      const { rows } = await db.query(
        'SELECT count(*)::int AS n FROM signals WHERE account_id = $1 AND sequence <= $2',
        [account.accountId, account.signals.last],
      );
      expect(rows[0]?.n).toBe(account.signals.count);
    }
    const { rows: misfiled } = await db.query(
      "SELECT count(*)::int AS n FROM signals WHERE account_id <> (data::jsonb ->> 'accountId')",
    );
    expect(misfiled[0].n).toBe(0);
    // Old tokens can be found by their hash through the routes table, each to its account.
    const { rows: routes } = await db.query(
      'SELECT count(*)::int AS n FROM token_routes r JOIN tokens t ON t.hash = r.hash AND t.account_id = r.account_id',
    );
    expect(routes[0].n).toBe(fixture.counts.tokens);
  });
});
