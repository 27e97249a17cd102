// The floors the tracker is measured against: bare node:http servers doing the least work a
// request of the API needs, with none of the tracker's code. Run in a process of its own, so that
// its CPU time can be read from /proc. Variants:
//   constant             GET answers a constant JSON object
//   echo                 POST parses the JSON body and echoes it with an id
//   sqlite <file>        better-sqlite3 over a tracker database: GET /api/v1/issues/{id} reads the
//                        token's grant and the issue; POST /api/v1/issues is one transaction: the
//                        token's grant, the project's counter, the issue insert (same table, same
//                        indexes and triggers), the signal and the Idempotency-Key's row
//   postgres <url>       pg over a tracker schema (?schema=): the same work, each request ONE
//                        prepared statement in one round trip (data-modifying CTEs)
// No validation, no key replay, no locks beyond the database's own, no limits, no logs: what the
// database and node:http must do, which the tracker's own cost is divided into. Prints
// "ready <port>" when listening.
import { createHash, randomUUID } from 'node:crypto';
import http from 'node:http';

const [variant, target] = process.argv.slice(2);
const ready = (server) => console.log(`ready ${server.address().port}`);
const tokenHash = (req) => createHash('sha256').update(req.headers.authorization.slice(7)).digest('hex');
// The tracker's tokens name their account: cn_<account id without acct_>_<secret>.
const accountOf = (req) => `acct_${/^Bearer cn_([^_]+)_/.exec(req.headers.authorization)?.[1]}`;

function respond(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(body);
}

function body(req) {
  return new Promise((resolve) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString()));
  });
}

/** The stored issue of a create: the fields the tracker keeps, without its optional ones. */
function newIssue(input, number, now) {
  return {
    id: `iss_${randomUUID().replaceAll('-', '').slice(0, 20)}`,
    projectId: input.projectId,
    number,
    title: input.title,
    description: null,
    status: 'open',
    severity: input.severity ?? 'medium',
    outcomeId: null,
    assigneeId: null,
    parentId: null,
    labels: [],
    archivedAt: null,
    createdAt: now,
    updatedAt: now,
    version: 1,
  };
}

const issuePath = /^\/api\/v1\/issues\/([^/?]+)$/;

if (variant === 'constant' || variant === 'echo') {
  const payload = JSON.stringify({ id: 'iss_0', title: 'Baseline', status: 'open', version: 1 });
  const server = http.createServer(async (req, res) => {
    const text = await body(req);
    if (req.method === 'GET') respond(res, 200, payload);
    else respond(res, 201, JSON.stringify({ ...JSON.parse(text), id: 'x' }));
  });
  server.listen(0, '127.0.0.1', () => ready(server));
} else if (variant === 'sqlite') {
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(target);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  const grant = db.prepare(
    'SELECT t.workspace_id, m.role, w.account_id FROM tokens t ' +
      'LEFT JOIN memberships m ON m.workspace_id = t.workspace_id AND m.user_id = t.user_id ' +
      'LEFT JOIN workspaces w ON w.id = t.workspace_id WHERE t.hash = ?',
  );
  const read = db.prepare('SELECT data FROM issues WHERE id = ? AND workspace_id = ?');
  const count = db.prepare(
    'INSERT INTO counters (name, workspace_id, value) VALUES (?, ?, 1) ' +
      'ON CONFLICT (name) DO UPDATE SET value = value + 1 RETURNING value',
  );
  const insertIssue = db.prepare(
    'INSERT INTO issues (id, workspace_id, created_at, updated_at, version, project_id, status, severity, number, title, data) ' +
      'VALUES (?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?)',
  );
  const insertSignal = db.prepare(
    'INSERT INTO signals (id, account_id, type, resource_id, occurred_at, data) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const insertKey = db.prepare(
    'INSERT INTO idempotency_keys (workspace_id, key, created_at, data) VALUES (?, ?, ?, ?)',
  );
  const create = db.transaction((hash, input, key) => {
    const { workspace_id: workspaceId, account_id: accountId } = grant.get(hash);
    const now = new Date().toISOString();
    const { value } = count.get(`issues:${input.projectId}`, workspaceId);
    const issue = newIssue(input, value, now);
    const json = JSON.stringify(issue);
    insertIssue.run(
      issue.id,
      workspaceId,
      now,
      now,
      issue.projectId,
      'open',
      issue.severity,
      value,
      issue.title,
      json,
    );
    const signalId = randomUUID();
    insertSignal.run(
      signalId,
      accountId,
      'issue.created',
      issue.id,
      now,
      JSON.stringify({ id: signalId, type: 'issue.created', occurredAt: now, data: issue }),
    );
    insertKey.run(workspaceId, key, now, JSON.stringify({ status: 201, body: json }));
    return json;
  });
  const server = http.createServer(async (req, res) => {
    const text = await body(req);
    if (req.method === 'GET') {
      const { workspace_id: workspaceId } = grant.get(tokenHash(req));
      const row = read.get(issuePath.exec(req.url)[1], workspaceId);
      respond(res, 200, row.data);
    } else {
      respond(res, 201, create.immediate(tokenHash(req), JSON.parse(text), req.headers['idempotency-key']));
    }
  });
  server.listen(0, '127.0.0.1', () => ready(server));
} else if (variant === 'postgres') {
  const { default: pg } = await import('pg');
  const url = new URL(target);
  const schema = url.searchParams.get('schema');
  url.searchParams.delete('schema');
  const pool = new pg.Pool({
    connectionString: url.toString(),
    max: 10,
    options: `-c search_path="${schema}"`,
  });
  const readSql =
    'SELECT i.data FROM tokens t ' +
    'JOIN memberships m ON m.account_id = t.account_id AND m.workspace_id = t.workspace_id AND m.user_id = t.user_id ' +
    'JOIN issues i ON i.account_id = t.account_id AND i.id = $3 AND i.workspace_id = t.workspace_id ' +
    'WHERE t.account_id = $1 AND t.hash = $2';
  // The grant, the counter, the issue, the signal (the account's next sequence) and the key's
  // row: one statement. The issue's JSON is finished in node with the number the counter gave.
  const createSql =
    'WITH t AS (SELECT t.workspace_id, t.account_id FROM tokens t ' +
    'JOIN memberships m ON m.account_id = t.account_id AND m.workspace_id = t.workspace_id AND m.user_id = t.user_id ' +
    'WHERE t.account_id = $1 AND t.hash = $2), ' +
    'c AS (INSERT INTO counters (name, value, workspace_id, account_id) ' +
    "SELECT 'issues:' || $3, 1, t.workspace_id, t.account_id FROM t " +
    'ON CONFLICT (account_id, name) DO UPDATE SET value = counters.value + 1 RETURNING value), ' +
    'd AS (SELECT replace($7, \'"number":0\', \'"number":\' || c.value) AS data, c.value FROM c), ' +
    'i AS (INSERT INTO issues (id, workspace_id, created_at, updated_at, version, project_id, status, severity, number, search_text, data, title, account_id) ' +
    "SELECT $4, t.workspace_id, $5, $5, 1, $3, 'open', $6, d.value, $8, d.data, $8, t.account_id FROM t, d RETURNING data), " +
    's AS (UPDATE accounts a SET last_sequence = a.last_sequence + 1 FROM t WHERE a.id = t.account_id RETURNING a.last_sequence), ' +
    'g AS (INSERT INTO signals (sequence, id, account_id, type, resource_id, occurred_at, data) ' +
    "SELECT s.last_sequence, $9, t.account_id, 'issue.created', $4, $5, i.data FROM s, t, i), " +
    'k AS (INSERT INTO idempotency_keys (workspace_id, key, created_at, data, account_id) ' +
    'SELECT t.workspace_id, $10, $5, i.data, t.account_id FROM t, i) ' +
    'SELECT data FROM i';
  const server = http.createServer(async (req, res) => {
    const text = await body(req);
    const account = accountOf(req);
    if (req.method === 'GET') {
      const { rows } = await pool.query({
        name: 'floor-read',
        text: readSql,
        values: [account, tokenHash(req), issuePath.exec(req.url)[1]],
      });
      respond(res, 200, rows[0].data);
    } else {
      const input = JSON.parse(text);
      const now = new Date().toISOString();
      const issue = newIssue(input, 0, now);
      const { rows } = await pool.query({
        name: 'floor-create',
        text: createSql,
        values: [
          account,
          tokenHash(req),
          input.projectId,
          issue.id,
          now,
          issue.severity,
          JSON.stringify(issue),
          issue.title,
          randomUUID(),
          req.headers['idempotency-key'],
        ],
      });
      respond(res, 201, rows[0].data);
    }
  });
  server.listen(0, '127.0.0.1', () => ready(server));
} else {
  throw new Error(`unknown floor ${variant}`);
}
