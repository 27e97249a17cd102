// Citus benchmark: POST /api/v1/issues and GET /api/v1/issues/{id} through real `serve` processes
// of the built CLI on plain PostgreSQL and on a Citus cluster, measured in the same run under the
// same load: rounds alternate the configurations, the table shows medians. Configurations:
//   - PostgreSQL: one `serve` on a schema of a database of its own on the plain server;
//   - Citus, on the coordinator: one `serve` on a distributed schema, connected to the coordinator;
//   - Citus, spread: two `serve` processes on that schema, one connected to the coordinator and one
//     to a worker (Citus syncs its metadata to the workers, so a worker routes statements too);
//     the load is split evenly between them.
// Creates go to 6 accounts (a workspace, an admin and a token each: `init`), in turn; on Citus
// their rows sit on both workers. CPU per request is utime+stime from /proc/<pid>/stat: of each
// `serve`, and of each PostgreSQL node's processes serving the benchmark's database (its
// backends, found under the node's postmaster, read from `<data_directory>/postmaster.pid`, by the
// database name in their command line: Citus's connections from the coordinator to the workers
// included), so other databases on the same servers are not counted.
//
// Needs: the plain server (BENCH_DATABASE_URL or TEST_DATABASE_URL) and a Citus coordinator
// (`--citus <URL>` or TEST_CITUS_URL: a database with the citus extension and its workers added,
// as `cluster.sh db NAME` makes), both local (their processes are read from /proc); Linux.
// BENCH_SECONDS (4), BENCH_ROUNDS (3), BENCH_CONNECTIONS (24), BENCH_SHARDS (8), BENCH_SERVE_FLAGS
// (the flags of every `serve`, lean by default: see serveFlags).
// BENCH_BASELINE_CLI: the built CLI of another version (dist/cli/main.js of a checkout); with it,
// one more configuration runs that version's `serve` on the coordinator, on the same schema, in
// the same alternating rounds: a before/after of a change measured under the same load.
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import pg from 'pg';
import { post, stop } from './serve-process.js';

const argUrl = (() => {
  const at = process.argv.indexOf('--citus');
  return at > 0 ? process.argv[at + 1] : undefined;
})();
const citusUrl = argUrl || process.env.TEST_CITUS_URL;
const plainUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
const seconds = Number(process.env.BENCH_SECONDS ?? 4);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 24);
const shards = Number(process.env.BENCH_SHARDS ?? 8);
const cli = process.env.BENCH_CLI || new URL('../dist/cli/main.js', import.meta.url).pathname;
const baselineCli = process.env.BENCH_BASELINE_CLI;
const ticksPerSecond = 100; // USER_HZ on Linux
// The flags every `serve` gets besides --db, --port and --json: lean by default (no rate limit, no
// storage-time share, warnings only); BENCH_SERVE_FLAGS replaces them, e.g. with
// "--rate-limit 100000000" for the defaults with a limit no load reaches.
const serveFlags = (process.env.BENCH_SERVE_FLAGS ?? '--rate-limit 0 --storage-time 0 --log-level warn')
  .split(/\s+/)
  .filter(Boolean);

function fail(message) {
  console.error(`bench/citus.js: ${message}`);
  process.exit(1);
}

if (!citusUrl)
  fail(
    'needs a Citus coordinator: --citus <URL> or TEST_CITUS_URL (start one: vendor/citus/install.sh, ' +
      'cluster.sh start, then cluster.sh db NAME prints its URL)',
  );
if (!plainUrl) fail('needs plain PostgreSQL: BENCH_DATABASE_URL or TEST_DATABASE_URL');

/** Runs `sql` on its own connection; a server that cannot be reached says so and exits. */
async function query(url, sql, params = [], what = url) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
  } catch (error) {
    fail(`cannot reach ${what} (${redact(url)}): ${error.message}`);
  }
  try {
    return (await client.query(sql, params)).rows;
  } finally {
    await client.end();
  }
}

const redact = (url) => {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
};

const withDatabase = (url, database, port) => {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  parsed.search = '';
  if (port !== undefined) parsed.port = String(port);
  return parsed.toString();
};

// ---- The servers' processes, from /proc ----

/** utime + stime of a process, in microseconds; 0 once it has gone. */
function cpuMicros(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / ticksPerSecond;
  } catch {
    return 0;
  }
}

function parentOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return -1;
  }
}

function commandOf(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

/** A PostgreSQL node: its postmaster's pid, read from its data directory. */
async function nodeOf(name, url) {
  const [{ data_directory: dir }] = await query(url, 'SHOW data_directory', [], name);
  let pid;
  try {
    pid = Number(readFileSync(`${dir}/postmaster.pid`, 'utf8').split('\n')[0]);
  } catch (error) {
    fail(
      `cannot read the postmaster of ${name} in ${dir} (the servers must run on this machine): ${error.message}`,
    );
  }
  return { name, postmaster: pid };
}

/** The backends of `node` serving `database` (their command line names it), with their CPU µs. */
function backendsOf(node, database) {
  const found = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (parentOf(pid) !== node.postmaster) continue;
    if (!commandOf(pid).includes(` ${database} `)) continue;
    found.set(pid, cpuMicros(pid));
  }
  return found;
}

// ---- serve, init, distribute ----

async function runCli(args) {
  const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk) => {
    out += chunk;
  });
  child.stderr.on('data', (chunk) => {
    err += chunk;
  });
  const [code] = await once(child, 'exit');
  if (code !== 0) throw new Error(`outcome-tracker ${args[0]} exited with ${code}: ${err}`);
  return out;
}

async function startServe(db, cliPath = cli) {
  const child = spawn(
    process.execPath,
    [cliPath, 'serve', '--db', db, '--port', '0', '--json', ...serveFlags],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let buffered = '';
  for await (const chunk of child.stdout) {
    buffered += chunk;
    const line = buffered.split('\n').find((l) => l.startsWith('{"url"'));
    if (line) {
      child.stdout.resume();
      return { child, pid: child.pid, url: JSON.parse(line).url };
    }
  }
  throw new Error(`serve --db ${redact(db)} did not start`);
}

/** Six accounts with a project each, and one issue to read. */
async function seed(db, server) {
  const workspaces = [];
  for (let w = 0; w < 6; w++) {
    const made = JSON.parse(
      await runCli([
        'init',
        '--db',
        db,
        '--workspace',
        `bench-${w}`,
        '--admin-email',
        `bench${w}@example.com`,
        '--json',
      ]),
    );
    const project = await post(server.url, made.token, '/projects', { name: 'Bench' });
    workspaces.push({ token: made.token, projectId: project.id });
  }
  const issue = await post(server.url, workspaces[0].token, '/issues', {
    projectId: workspaces[0].projectId,
    title: 'Read me',
  });
  return { workspaces, issueId: issue.id };
}

// ---- Set-up ----

const citusVersion = (
  await query(
    citusUrl,
    "SELECT extversion AS v FROM pg_extension WHERE extname = 'citus'",
    [],
    'the Citus coordinator',
  )
)[0]?.v;
if (!citusVersion) fail(`${redact(citusUrl)} has no citus extension: not a Citus coordinator`);
const workers = await query(
  citusUrl,
  "SELECT nodename, nodeport FROM pg_dist_node WHERE noderole = 'primary' AND groupid <> 0 ORDER BY nodeport",
);
if (workers.length === 0) fail(`${redact(citusUrl)} has no workers (citus_add_node)`);
const citusDatabase = new URL(citusUrl).pathname.slice(1);

// Plain PostgreSQL: a database of the benchmark's own, so that its backends are told apart.
const plainDatabase = `ot_bench_${randomBytes(4).toString('hex')}`;
await query(plainUrl, `CREATE DATABASE ${plainDatabase}`, [], 'plain PostgreSQL');
const plainDb = `${withDatabase(plainUrl, plainDatabase)}?schema=bench`;

// Citus: a schema of its own in the given database, distributed by account.
const schema = `ot_bench_${randomBytes(4).toString('hex')}`;
const citusDb = (() => {
  const parsed = new URL(citusUrl);
  parsed.searchParams.set('schema', schema);
  return parsed.toString();
})();
const workerDb = (() => {
  const parsed = new URL(withDatabase(citusUrl, citusDatabase, workers[0].nodeport));
  parsed.hostname = workers[0].nodename;
  parsed.searchParams.set('schema', schema);
  return parsed.toString();
})();

const nodes = {
  plain: await nodeOf('PostgreSQL', plainUrl),
  coordinator: await nodeOf('coordinator', citusUrl),
  workers: await Promise.all(
    workers.map((w, i) => nodeOf(`worker ${i + 1}`, withDatabase(citusUrl, citusDatabase, w.nodeport))),
  ),
};

console.error(`[bench] distributing ${schema} (${shards} shards a table) on Citus ${citusVersion}`);
await runCli(['distribute', '--db', citusDb, '--shard-count', String(shards)]);

const servers = [];
try {
  const plain = await startServe(plainDb);
  servers.push(plain);
  const onCoordinator = await startServe(citusDb);
  servers.push(onCoordinator);
  const onWorker = await startServe(workerDb);
  servers.push(onWorker);
  const baseline = baselineCli ? await startServe(citusDb, baselineCli) : undefined;
  if (baseline) servers.push(baseline);
  const plainSeed = await seed(plainDb, plain);
  const citusSeed = await seed(citusDb, onCoordinator);

  const configs = [
    { name: 'PostgreSQL, 1 serve', servers: [plain], target: plainSeed, citus: false },
    { name: 'Citus, 1 serve on the coordinator', servers: [onCoordinator], target: citusSeed, citus: true },
    {
      name: 'Citus, 2 serves: coordinator + worker 1',
      servers: [onCoordinator, onWorker],
      target: citusSeed,
      citus: true,
    },
    ...(baseline
      ? [
          {
            name: 'Citus, baseline build on the coordinator',
            servers: [baseline],
            target: citusSeed,
            citus: true,
          },
        ]
      : []),
  ];
  const loads = [];
  for (const op of ['POST', 'GET']) for (const config of configs) loads.push({ op, ...config });

  /** Loads every server of the config at once; CPU per answered request of each process group. */
  async function measure(load) {
    const per = Math.max(1, Math.round(connections / load.servers.length));
    const groups = load.citus
      ? [nodes.coordinator, ...nodes.workers].map((node) => ({ node, database: citusDatabase }))
      : [{ node: nodes.plain, database: plainDatabase }];
    const before = groups.map((g) => backendsOf(g.node, g.database));
    const serveBefore = load.servers.map((s) => cpuMicros(s.pid));
    let next = 0;
    const results = await Promise.all(
      load.servers.map((server) => {
        const options =
          load.op === 'POST'
            ? {
                url: `${server.url}/api/v1/issues`,
                method: 'POST',
                requests: [
                  {
                    setupRequest: (req) => {
                      const { token, projectId } =
                        load.target.workspaces[next++ % load.target.workspaces.length];
                      return {
                        ...req,
                        headers: {
                          authorization: `Bearer ${token}`,
                          'content-type': 'application/json',
                          'idempotency-key': randomUUID(),
                        },
                        body: JSON.stringify({ projectId, title: 'Benchmark issue', severity: 'high' }),
                      };
                    },
                  },
                ],
              }
            : {
                url: `${server.url}/api/v1/issues/${load.target.issueId}`,
                headers: { authorization: `Bearer ${load.target.workspaces[0].token}` },
              };
        return autocannon({ ...options, duration: seconds, connections: per });
      }),
    );
    const ok = results.reduce((sum, r) => sum + r.requests.total - r.non2xx - r.errors, 0);
    const failed = results.reduce((sum, r) => sum + r.non2xx + r.errors, 0);
    const serveCpu = load.servers.reduce((sum, s, i) => sum + cpuMicros(s.pid) - serveBefore[i], 0);
    const nodeCpu = groups.map((g, i) => {
      let total = 0;
      for (const [pid, cpu] of backendsOf(g.node, g.database)) total += cpu - (before[i].get(pid) ?? 0);
      return { name: g.node.name, perRequest: ok > 0 ? total / ok : 0 };
    });
    return {
      rps: ok / seconds,
      p99: Math.max(...results.map((r) => r.latency.p99)),
      serve: ok > 0 ? serveCpu / ok : 0,
      nodes: nodeCpu,
      failed,
    };
  }

  const measured = new Map();
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? loads : [...loads].reverse();
    for (const load of order) {
      const key = `${load.op} ${load.name}`;
      const result = await measure(load);
      measured.set(key, [...(measured.get(key) ?? []), result]);
      console.error(`round ${round + 1}: ${key}: ${result.rps.toFixed(0)} req/s`);
    }
  }

  const median = (values) => {
    const sorted = [...values].sort((a, b) => a - b);
    const mid = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  };
  console.log(
    `\nmedians of ${rounds} alternating rounds, ${seconds}s each, ${connections} connections split over the serve ` +
      `processes; 6 accounts; Citus ${citusVersion}, ${workers.length} workers, ${shards} shards a table; ` +
      `serve ${serveFlags.join(' ')}; CPU µs per answered request from /proc\n`,
  );
  const header = [
    'request',
    'configuration',
    'req/s',
    'vs PostgreSQL',
    'p99 ms',
    'serve µs',
    'PostgreSQL µs',
    'coordinator µs',
    ...nodes.workers.map((w) => `${w.name} µs`),
    'database total µs',
    'non-2xx',
  ];
  const rows = [];
  for (const load of loads) {
    const results = measured.get(`${load.op} ${load.name}`);
    const base = measured.get(`${load.op} ${configs[0].name}`);
    const rps = median(results.map((r) => r.rps));
    const nodeMedian = (name) => {
      const values = results.map((r) => r.nodes.find((n) => n.name === name)?.perRequest);
      return values[0] === undefined ? '-' : median(values).toFixed(0);
    };
    const dbTotal = median(results.map((r) => r.nodes.reduce((sum, n) => sum + n.perRequest, 0)));
    rows.push([
      load.op === 'POST' ? 'POST /issues' : 'GET /issues/{id}',
      load.name,
      rps.toFixed(0),
      (rps / median(base.map((r) => r.rps))).toFixed(2),
      String(median(results.map((r) => r.p99))),
      median(results.map((r) => r.serve)).toFixed(0),
      nodeMedian('PostgreSQL'),
      nodeMedian('coordinator'),
      ...nodes.workers.map((w) => nodeMedian(w.name)),
      dbTotal.toFixed(0),
      String(results.reduce((sum, r) => sum + r.failed, 0)),
    ]);
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const row of rows) console.log(line(row));
  const creates = (name) => median(measured.get(`POST ${name}`).map((r) => r.rps));
  const ratio = creates(configs[1].name) / creates(configs[0].name);
  console.log(
    `\ncreates on Citus (serve on the coordinator) / plain PostgreSQL: ${ratio.toFixed(2)} (target ≥ 0.5)` +
      `; with a second serve on a worker: ${(creates(configs[2].name) / creates(configs[0].name)).toFixed(2)}`,
  );
} finally {
  for (const server of servers) await stop(server);
  await query(citusUrl, `DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => {});
  await query(plainUrl, `DROP DATABASE IF EXISTS ${plainDatabase} WITH (FORCE)`).catch(() => {});
}
