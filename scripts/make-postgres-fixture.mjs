#!/usr/bin/env node
/**
 * Makes test/fixtures/postgres/v16.sql: a PostgreSQL database as the version before the
 * account-distributed schema (schema migration 16) left it, with data in every table, for the
 * upgrade test (test/postgres/distribution-upgrade.test.ts) to migrate in place.
 *
 * Run it with that version's build, never the current one (the point is the old schema):
 *
 *   git worktree add --detach ../prev <commit before migration 17> && cd ../prev && npm ci && npm run build
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test \
 *     node scripts/make-postgres-fixture.mjs --build ../prev/dist
 *
 * It serves a tracker on that build over real HTTP and makes the data as clients and the
 * operator would (the operator's steps through the storage port, as the CLI does), then writes
 * `pg_dump` of the schema with the schema's name replaced by `__SCHEMA__`, and beside it
 * v16.json: the plain tokens (a database keeps only their hashes), the ids the test looks for,
 * and what the data holds (counts per table, signals per account).
 */
import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'test', 'fixtures', 'postgres');
const buildArg = process.argv.indexOf('--build');
if (buildArg < 0 || !process.argv[buildArg + 1]) {
  console.error('usage: node scripts/make-postgres-fixture.mjs --build <previous version>/dist');
  process.exit(2);
}
const build = resolve(process.argv[buildArg + 1]);
const url = process.env.TEST_DATABASE_URL;
if (!url) {
  console.error('TEST_DATABASE_URL is unset (e.g. postgres://postgres@127.0.0.1:5432/test)');
  process.exit(2);
}
const load = (path) => import(pathToFileURL(join(build, path)).href);
const core = await load('core/index.js');
const { postgresStorage } = await load('adapters/postgres/index.js');
const { nodeHandler } = await load('http/node.js');
const { adminArea } = await load('admin/index.js');
const { startSession } = await load('admin/sessions.js');
const { tenancy } = core;

/** The fixture's time: fixed origin, moving at the wall clock's pace (the test's clock starts after it). */
const origin = Date.parse('2026-11-20T09:00:00.000Z');
const startedAt = Date.now();
const clock = { now: () => origin + (Date.now() - startedAt) };

/** A receiver that takes deliveries of the first subscription and refuses the second's (they stay pending). */
const sender = {
  resolve: async () => ['93.184.216.34'],
  send: async (request) => ({
    status: request.url.endsWith('/refuses') ? 503 : 204,
    retryAfter: null,
    error: null,
    durationMs: 3,
    responseHeaders: {},
    responseBody: '',
    responseBodyTruncated: false,
  }),
};

const schema = `ot_fixture_${randomBytes(4).toString('hex')}`;
const storage = postgresStorage({ connectionString: url, schema, poolMax: 4 });
await storage.ready();
const tracker = core.createTracker({
  storage,
  clock,
  extensions: [adminArea()],
  rateLimit: { limit: 100_000, store: storage.rateLimits },
  storageTimeBudget: { store: storage.storageTimes },
  webhooks: { sender },
  onError: (error) => console.error(error),
});
tracker.webhooks.start(200);
const server = createServer(nodeHandler(tracker));
await new Promise((done) => server.listen(0, '127.0.0.1', done));
const base = `http://127.0.0.1:${server.address().port}`;

/** One API request (a create with an Idempotency-Key of its own unless given one); throws unless 2xx. */
async function api(method, path, token, body, headers = {}) {
  if (method === 'POST' && !('idempotency-key' in headers))
    headers = { ...headers, 'idempotency-key': randomUUID() };
  const response = await fetch(`${base}/api/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text === '' ? undefined : JSON.parse(text);
}

const deps = () => ({ ids: tracker.ids, now: clock.now() });
const op = (fn) => storage.transaction((tx) => fn({ tx, ...deps() }));

// The operator: account one with two workspaces, account two with one; users in several.
const acme = await op((d) => tenancy.initWorkspace(d, { slug: 'acme', adminEmail: 'ana@acme.test' }));
const labs = await op(async (d) => {
  const workspace = {
    id: tracker.ids.id('ws'),
    accountId: acme.accountId,
    slug: 'acme-labs',
    name: 'Acme Labs',
    createdAt: new Date(d.now).toISOString(),
  };
  await d.tx.tenancy.insertWorkspace(workspace);
  const { user } = await tenancy.addMember(d, {
    workspaceId: workspace.id,
    email: 'ana@acme.test',
    role: 'admin',
  });
  const issued = await tenancy.issueToken(d, {
    workspaceId: workspace.id,
    userId: user.id,
    name: 'labs',
    scope: 'read_write',
  });
  return { workspaceId: workspace.id, userId: user.id, token: issued.plain };
});
const globex = await op((d) => tenancy.initWorkspace(d, { slug: 'globex', adminEmail: 'gus@globex.test' }));

const member = await op(async (d) => {
  const { user } = await tenancy.addMember(d, {
    workspaceId: acme.workspaceId,
    email: 'bo@acme.test',
    role: 'member',
  });
  // The same person is a viewer of the other account's workspace too (users are shared by accounts).
  await tenancy.addMember(d, { workspaceId: globex.workspaceId, email: 'bo@acme.test', role: 'viewer' });
  const readWrite = await tenancy.issueToken(d, {
    workspaceId: acme.workspaceId,
    userId: user.id,
    name: 'bo',
    scope: 'read_write',
  });
  const inGlobex = await tenancy.issueToken(d, {
    workspaceId: globex.workspaceId,
    userId: user.id,
    name: 'bo at globex',
    scope: 'read',
  });
  return {
    userId: user.id,
    token: readWrite.plain,
    tokenId: readWrite.token.id,
    globexToken: inGlobex.plain,
  };
});
const adminRead = await op((d) =>
  tenancy.issueToken(d, {
    workspaceId: acme.workspaceId,
    userId: acme.userId,
    name: 'read only',
    scope: 'read',
    expiresInDays: 90,
  }),
);
const revoked = await op(async (d) => {
  const issued = await tenancy.issueToken(d, {
    workspaceId: acme.workspaceId,
    userId: acme.userId,
    name: 'leaked',
    scope: 'read_write',
  });
  await d.tx.tokens.revoke(issued.token.id, new Date(d.now).toISOString());
  return issued;
});
const session = await storage.transaction((tx) => startSession(tx, acme.userId, clock.now(), false));
const sessionCookie = session.setCookie.split(';')[0];

// The clients: every family, in both accounts, with idempotency keys on some writes.
const idempotencyKeys = [];
async function make(tenantToken, tag) {
  const project = await api('POST', '/projects', tenantToken, {
    name: `${tag} Apollo`,
    description: 'The first project',
  });
  const second = await api('POST', '/projects', tenantToken, { name: `${tag} Borealis` });
  const outcome = await api('POST', '/outcomes', tenantToken, {
    projectId: project.id,
    title: `${tag}: card payments`,
    dueDate: '2026-12-31',
  });
  const issues = [];
  for (let n = 1; n <= 5; n++) {
    const key = randomUUID();
    const body = {
      projectId: n === 5 ? second.id : project.id,
      title: `${tag} issue ${n}`,
      labels: n % 2 === 0 ? ['bug', 'backend'] : ['ux'],
      ...(n <= 3 ? { outcomeId: outcome.id } : {}),
    };
    issues.push(await api('POST', '/issues', tenantToken, body, { 'idempotency-key': key }));
    idempotencyKeys.push({ tag, key, path: '/issues', body, id: issues.at(-1).id });
  }
  await api('POST', `/issues/${issues[0].id}/relations`, tenantToken, {
    type: 'blocks',
    issueId: issues[1].id,
  });
  await api('POST', `/issues/${issues[2].id}/relations`, tenantToken, {
    type: 'parent_of',
    issueId: issues[3].id,
  });
  await api(
    'POST',
    `/issues/${issues[1].id}/transition`,
    tenantToken,
    { to: 'in_progress' },
    { 'if-match': '*' },
  );
  const comment = await api('POST', '/comments', tenantToken, {
    issueId: issues[0].id,
    body: `${tag}: seen on **Safari** too`,
  });
  await api('POST', '/comments', tenantToken, { outcomeId: outcome.id, body: `${tag}: on track` });
  const decision = await api('POST', '/decisions', tenantToken, {
    projectId: project.id,
    title: `${tag}: use Postgres`,
    rationale: 'One database',
    participants: ['ana', 'bo'],
  });
  const context = await api('POST', '/context', tenantToken, {
    outcomeId: outcome.id,
    kind: 'link',
    title: 'Spec',
    url: 'https://docs.example.com/spec',
  });
  const time = await api('POST', '/time-entries', tenantToken, {
    outcomeId: outcome.id,
    minutes: 45,
    date: '2026-11-19',
    note: 'pairing',
  });
  return {
    projects: [project.id, second.id],
    outcome: outcome.id,
    issues: issues.map((i) => ({ id: i.id, key: i.key, labels: i.labels })),
    comment: comment.id,
    decision: decision.id,
    context: context.id,
    timeEntry: time.id,
  };
}
const acmeData = await make(acme.token, 'acme');
const labsData = await make(labs.token, 'labs');
const globexData = await make(globex.token, 'globex');
// Issues made by the member (their token's last use is recorded too).
await api('POST', '/issues', member.token, { projectId: acmeData.projects[0], title: 'Member issue' });

// Webhooks: one receiver that takes deliveries, one that refuses them (pending, with an attempt).
const hooks = {};
for (const [tag, token] of [
  ['acme', acme.token],
  ['globex', globex.token],
]) {
  const takes = await api('POST', '/webhooks', token, {
    url: `https://hooks.example.com/${tag}/takes`,
    eventTypes: ['issue.created', 'issue.updated'],
  });
  const refuses = await api('POST', '/webhooks', token, {
    url: `https://hooks.example.com/${tag}/refuses`,
    eventTypes: ['issue.created'],
  });
  hooks[tag] = { takes: takes.id, refuses: refuses.id };
  for (let n = 1; n <= 2; n++)
    await api('POST', '/issues', token, {
      projectId: (tag === 'acme' ? acmeData : globexData).projects[0],
      title: `${tag} hooked ${n}`,
    });
}

/** Waits until every subscription has had a delivery attempted. */
const probe = new pg.Client({ connectionString: url });
await probe.connect();
await probe.query(`SET search_path TO "${schema}"`);
for (let waited = 0; ; waited += 100) {
  const { rows } = await probe.query(
    'SELECT count(DISTINCT d.subscription_id)::int AS n FROM deliveries d JOIN delivery_attempts a ON a.delivery_id = d.id',
  );
  if (rows[0].n === 4) break;
  if (waited > 20_000) throw new Error('deliveries were not attempted within 20 s');
  await new Promise((done) => setTimeout(done, 100));
}
await new Promise((done) => setTimeout(done, 300));
server.close();
server.closeAllConnections();
await tracker.close();
await storage.close();

// What the test checks the upgraded database against.
const counts = {};
const { rows: tables } = await probe.query(
  `SELECT tablename FROM pg_tables WHERE schemaname = $1 ORDER BY tablename`,
  [schema],
);
for (const { tablename } of tables) {
  const { rows } = await probe.query(`SELECT count(*)::int AS n FROM "${tablename}"`);
  counts[tablename] = rows[0].n;
}
const { rows: signalRows } = await probe.query(
  'SELECT account_id, count(*)::int AS n, max(sequence)::int AS last FROM signals GROUP BY account_id',
);
const { rows: migrations } = await probe.query('SELECT max(version)::int AS v FROM schema_migrations');
await probe.end();

const dump = execFileSync(
  'pg_dump',
  [
    '--dbname',
    url,
    '--schema',
    schema,
    '--no-owner',
    '--no-privileges',
    '--no-comments',
    '--inserts',
    '--rows-per-insert',
    '200',
  ],
  { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
);
// pg_dump sets search_path to '' and names every object with the schema: one placeholder for it.
const sql = dump
  .split('\n')
  // Not the versions that made it, nor psql's \restrict guard (a random key; the test loads the
  // file through a driver, not psql).
  .filter((line) => !/^-- Dumped (from|by) /.test(line) && !/^\\(un)?restrict /.test(line))
  .join('\n')
  .replaceAll(`"${schema}"`, '__SCHEMA__')
  .replaceAll(schema, '__SCHEMA__');
if (sql.includes('ot_fixture_')) throw new Error('the schema name survived in the dump');
writeFileSync(join(outDir, 'v16.sql'), sql);

const byAccount = Object.fromEntries(signalRows.map((r) => [r.account_id, { count: r.n, last: r.last }]));
const fixture = {
  about:
    'Made by scripts/make-postgres-fixture.mjs with the build before migration 17; tokens are plain here, hashed in v16.sql.',
  schemaVersion: migrations[0].v,
  clockOrigin: new Date(origin).toISOString(),
  madeUntil: new Date(clock.now()).toISOString(),
  accounts: {
    acme: {
      accountId: acme.accountId,
      workspaces: { acme: acme.workspaceId, 'acme-labs': labs.workspaceId },
      signals: byAccount[acme.accountId],
    },
    globex: {
      accountId: globex.accountId,
      workspaces: { globex: globex.workspaceId },
      signals: byAccount[globex.accountId],
    },
  },
  users: { ana: acme.userId, bo: member.userId, gus: globex.userId },
  tokens: {
    acmeAdmin: acme.token,
    acmeRead: adminRead.plain,
    labsAdmin: labs.token,
    globexAdmin: globex.token,
    boAcme: member.token,
    boGlobexRead: member.globexToken,
    revoked: revoked.plain,
  },
  sessionCookie,
  data: { acme: acmeData, 'acme-labs': labsData, globex: globexData },
  webhooks: hooks,
  idempotencyKeys,
  counts,
};
writeFileSync(join(outDir, 'v16.json'), `${JSON.stringify(fixture, null, 2)}\n`);

const cleanup = new pg.Client({ connectionString: url });
await cleanup.connect();
await cleanup.query(`DROP SCHEMA "${schema}" CASCADE`);
await cleanup.end();
console.log(`wrote ${join(outDir, 'v16.sql')} (${sql.length} bytes) and v16.json: ${JSON.stringify(counts)}`);
