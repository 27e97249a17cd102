// Which index of `issues` each request reads, on PostgreSQL at BENCH_ISSUES (1,000,000) issues
// seeded as bench/postgres-seed.js says: the issue lists with every filter alone and in the pairs
// bench/list.js times, each sort either way alone and with a filter, and the writes and reads of
// one issue. An index no request reads costs every write and serves none (issue 53's index diet).
//
// Index scans are PostgreSQL's own counters (pg_stat_user_indexes), read before and after each
// request. The tracker runs on one connection, so one backend holds them; PostgreSQL 15 writes a
// backend's counters out when it goes idle at least a second after it last did, so each request is
// followed, a second later, by a request that reads no issue (GET /projects) before they are read.
// Needs BENCH_DATABASE_URL or TEST_DATABASE_URL; a schema of its own, dropped after.
import http from 'node:http';
import { postgresStorage } from '../dist/adapters/postgres/index.js';
import { createTracker } from '../dist/core/index.js';
import { nodeHandler } from '../dist/http/node.js';
import { benchSchema } from './postgres-schema.js';
import { seedIssues } from './postgres-seed.js';

const url = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
if (!url) {
  console.error('bench/postgres-indexes.js: needs BENCH_DATABASE_URL or TEST_DATABASE_URL');
  process.exit(1);
}
const count = Number(process.env.BENCH_ISSUES ?? 1_000_000);
const bench = await benchSchema(url, 'bench_indexes');
const { schema, admin, close } = bench;
const info = await seedIssues(bench, count);

// A tracker of its own on one connection: every statement of the requests on one backend.
const storage = postgresStorage({ connectionString: url, schema, poolMax: 1 });
const tracker = createTracker({ storage, rateLimit: false });
const server = http.createServer(nodeHandler(tracker));
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const api = `http://127.0.0.1:${server.address().port}/api/v1`;
const headers = { authorization: `Bearer ${info.token}`, 'content-type': 'application/json' };

async function call(method, path, body, extra = {}) {
  const response = await fetch(`${api}${path}`, {
    method,
    headers: { ...headers, ...extra },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (response.status >= 300)
    throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 200)}`);
  return text ? JSON.parse(text) : null;
}

async function scans() {
  await new Promise((resolve) => setTimeout(resolve, 1_100));
  await call('GET', '/projects?limit=1');
  const { rows } = await admin.query(
    'SELECT indexrelname AS name, idx_scan::int AS n FROM pg_stat_user_indexes WHERE schemaname = $1 AND relname = $2',
    [schema, 'issues'],
  );
  return new Map(rows.map((row) => [row.name, row.n]));
}

const { projectId: big, smallProjectId: small } = info;
const lists = {
  'first page': '',
  'status=open': '&status=open',
  'severity=critical': '&severity=critical',
  'projectId (90%)': `&projectId=${big}`,
  'projectId (10%)': `&projectId=${small}`,
  assigneeId: '&assigneeId=usr_nobody',
  outcomeId: '&outcomeId=out_nobody',
  parentId: '&parentId=iss_nobody',
  'status+severity': '&status=open&severity=high',
  'projectId+status': `&projectId=${big}&status=open`,
  'labels=x': '&labels=x',
  'labels=rare': '&labels=rare',
  'labelsNone=x&status=open': '&labelsNone=x&status=open',
  'updatedSince, none': '&updatedSince=2099-01-01T00:00:00.000Z',
  'dueBefore=2026-02-01': '&dueBefore=2026-02-01',
  'archived=only': '&archived=only',
  'archived=true': '&archived=true',
  'q=issue 12345': `&q=${encodeURIComponent('issue 12345')}`,
  'externalId=SHOP-101': '&externalId=SHOP-101',
};
for (const field of ['createdAt', 'updatedAt', 'number', 'severity', 'status', 'title', 'dueOn', 'estimate'])
  for (const order of ['', '-']) {
    lists[`sort=${order}${field}`] = `&sort=${order}${field}`;
    lists[`sort=${order}${field}&status=open`] = `&sort=${order}${field}&status=open`;
    lists[`sort=${order}${field}&projectId (10%)`] = `&sort=${order}${field}&projectId=${small}`;
  }

const requests = Object.entries(lists).map(([name, query]) => [
  `GET /issues ${name}`,
  () => call('GET', `/issues?limit=50${query}`),
]);
let issue;
requests.push(
  [
    'POST /issues',
    async () => {
      issue = await call(
        'POST',
        '/issues',
        { projectId: small, title: 'Indexed' },
        { 'idempotency-key': crypto.randomUUID() },
      );
    },
  ],
  ['GET /issues/{id}', () => call('GET', `/issues/${issue.id}`)],
  [
    'PATCH /issues/{id}',
    async () => {
      issue = await call(
        'PATCH',
        `/issues/${issue.id}`,
        { severity: 'critical' },
        { 'if-match': `"${issue.version}"` },
      );
    },
  ],
  [
    'POST /issues/{id}/transition',
    async () => {
      issue = await call('POST', `/issues/${issue.id}/transition`, { to: 'in_progress' });
    },
  ],
  [
    'POST /issues/{id}/archive',
    async () => {
      issue = await call('POST', `/issues/${issue.id}/archive`, undefined, {
        'if-match': `"${issue.version}"`,
      });
    },
  ],
  ['GET /labels', () => call('GET', '/labels?limit=50')],
  [
    'POST /outcomes, POST /issues of it, GET /outcomes/{id}/summary',
    async () => {
      const outcome = await call(
        'POST',
        '/outcomes',
        { projectId: small, title: 'Indexed' },
        { 'idempotency-key': crypto.randomUUID() },
      );
      await call(
        'POST',
        '/issues',
        { projectId: small, title: 'Of the outcome', outcomeId: outcome.id },
        { 'idempotency-key': crypto.randomUUID() },
      );
      await call('GET', `/outcomes/${outcome.id}/summary`);
    },
  ],
);

try {
  const readers = new Map();
  let before = await scans();
  console.log(`\nIndexes of issues read by each request, ${count.toLocaleString('en')} issues:\n`);
  console.log('| request | indexes read |\n| --- | --- |');
  for (const [name, run] of requests) {
    await run();
    const after = await scans();
    const read = [...after].filter(([index, n]) => n > (before.get(index) ?? 0)).map(([index]) => index);
    for (const index of read) readers.set(index, [...(readers.get(index) ?? []), name]);
    console.log(`| ${name} | ${read.join(', ') || '-'} |`);
    before = after;
  }
  const { rows } = await admin.query(
    'SELECT indexrelname AS name, pg_relation_size(indexrelid) AS bytes FROM pg_stat_user_indexes ' +
      'WHERE schemaname = $1 AND relname = $2 ORDER BY 1',
    [schema, 'issues'],
  );
  console.log('\n| index | size | requests that read it |\n| --- | --- | --- |');
  for (const { name, bytes } of rows) {
    const by = readers.get(name) ?? [];
    const mb = `${(Number(bytes) / 2 ** 20).toFixed(0)} MB`;
    console.log(
      `| ${name} | ${mb} | ${by.length === 0 ? '**none**' : `${by.length}: ${by.slice(0, 4).join('; ')}${by.length > 4 ? '; …' : ''}`} |`,
    );
  }
} finally {
  server.close();
  await tracker.close();
  await close();
}
