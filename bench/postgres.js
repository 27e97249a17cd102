// PostgreSQL benchmark: POST /api/v1/issues and GET /api/v1/issues/{id} through 1, 2 and 3
// `serve` processes of the built CLI on one PostgreSQL schema, against one `serve` on a SQLite
// file measured in the same run, under the same load (the same total connections, split evenly
// over the processes). Creates go to one project, or spread over 6 workspaces (an account and a
// project each); the database is local, or behind a TCP proxy adding BENCH_DELAY_MS (1.5 ms) to
// every round trip (bench/delay-proxy.js). Rounds alternate the configurations; the table shows
// medians. CPU per request is utime+stime from /proc/<pid>/stat of every loaded server process,
// and of the PostgreSQL backends serving them (and of the delaying proxy, for its lines); "cores
// busy" adds the load generator's own CPU and divides by the time: near the machine's core count,
// CPU was the bound. Rollbacks per request are the benchmark
// database's own (pg_stat_database of a database made for the run). BENCH_PROFILE=1 also
// profiles one process (--cpu-prof) and prints where its time goes. BENCH_CLI=<main.js> measures
// another build (an earlier commit's, for a before/after). Needs BENCH_DATABASE_URL or
// TEST_DATABASE_URL; Linux (/proc).
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { postgresEfficiency, tableLines } from './efficiency.js';
import { post, stop } from './serve-process.js';

const serverUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
if (!serverUrl) {
  console.error('bench/postgres.js needs BENCH_DATABASE_URL or TEST_DATABASE_URL (a postgres:// URL)');
  process.exit(2);
}
const seconds = Number(process.env.BENCH_SECONDS ?? 4);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 48);
const delayMs = Number(process.env.BENCH_DELAY_MS ?? 1.5);
const cli = process.env.BENCH_CLI || new URL('../dist/cli/main.js', import.meta.url).pathname;
const ticksPerSecond = 100; // USER_HZ on Linux
const appName = 'ot-bench';

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

/** Starts `serve --json` with extra node flags; resolves once it has printed its startup line. */
async function startServe(db, nodeFlags = []) {
  const child = spawn(
    process.execPath,
    [
      ...nodeFlags,
      cli,
      'serve',
      '--db',
      db,
      '--port',
      '0',
      '--json',
      '--rate-limit',
      '0',
      '--storage-time',
      '0',
    ],
    {
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  let buffered = '';
  for await (const chunk of child.stdout) {
    buffered += chunk;
    const line = buffered.split('\n').find((l) => l.startsWith('{"url"'));
    if (line) {
      child.stdout.resume();
      const startup = JSON.parse(line);
      return { child, pid: child.pid, url: startup.url, token: startup.init?.token ?? null };
    }
  }
  throw new Error(`serve --db ${db} did not start`);
}

/** Runs the CLI to completion; resolves with its stdout. */
async function runCli(args) {
  const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  for await (const chunk of child.stdout) out += chunk;
  const [code] = await once(child, 'exit');
  if (code !== 0) throw new Error(`outcome-tracker ${args[0]} exited with ${code}`);
  return out;
}

/** Six workspaces (an account, an admin and a token each), made before any server starts. */
async function initWorkspaces(db) {
  const made = [];
  for (let w = 0; w < 6; w++) {
    const out = await runCli([
      'init',
      '--db',
      db,
      '--workspace',
      `bench-${w}`,
      '--admin-email',
      `bench${w}@example.com`,
      '--json',
    ]);
    made.push(JSON.parse(out).token);
  }
  return made;
}

/** A project per workspace, and one issue to read back in the first, made through `server`. */
async function seed(server, tokens) {
  const targets = [];
  for (const token of tokens) {
    const project = await post(server.url, token, '/projects', { name: 'Bench' });
    targets.push({ token, projectId: project.id });
  }
  const issue = await post(server.url, tokens[0], '/issues', {
    projectId: targets[0].projectId,
    title: 'Read me',
  });
  return { workspaces: targets, issueId: issue.id };
}

// First, the efficiency against the bare node:http + pg floor (bench/efficiency.js).
console.error('[bench] efficiency: serve against the bare pg floor');
const efficiency = await postgresEfficiency(serverUrl, {
  count: Number(process.env.BENCH_EFFICIENCY_ROUNDS ?? 3),
});
console.log(tableLines(efficiency).join('\n'));
if (process.env.BENCH_ONLY === 'efficiency') process.exit(0);

// A database of the benchmark's own, so that its transaction statistics are the benchmark's alone.
const database = `ot_bench_${randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: serverUrl });
await admin.connect();
await admin.query(`CREATE DATABASE ${database}`);
const dbUrl = new URL(serverUrl);
dbUrl.pathname = `/${database}`;
const monitor = new pg.Client({ connectionString: dbUrl.toString() });
await monitor.connect();

/** The backends serving the benchmark's servers (their pool connections carry our application_name). */
async function backendPids() {
  const { rows } = await monitor.query('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [
    appName,
  ]);
  return rows.map((r) => r.pid);
}

/** Rolled-back transactions of the benchmark's database (statistics are published at most once a second). */
async function rollbacks() {
  await new Promise((resolve) => setTimeout(resolve, 1100));
  await monitor.query('SELECT pg_stat_clear_snapshot()');
  const { rows } = await monitor.query('SELECT xact_rollback FROM pg_stat_database WHERE datname = $1', [
    database,
  ]);
  return Number(rows[0].xact_rollback);
}

/**
 * Loads every server of `servers` at once, `connections / servers.length` connections each.
 * `proxyPid`: the delaying proxy the servers reach the database through, whose CPU is counted too.
 */
async function load(op, servers, target, withBackends, proxyPid = null) {
  const per = Math.max(1, Math.round(connections / servers.length));
  const backendsBefore = withBackends ? await backendPids() : [];
  const cpuBefore = servers.map((s) => cpuMicros(s.pid));
  const backendCpuBefore = new Map(backendsBefore.map((pid) => [pid, cpuMicros(pid)]));
  const rollbacksBefore = withBackends ? await rollbacks() : 0;
  const proxyCpuBefore = proxyPid === null ? 0 : cpuMicros(proxyPid);
  // The load generator's own CPU (this process), for how many of the machine's cores were busy.
  const selfBefore = process.cpuUsage();
  const startedAt = performance.now();
  let next = 0;
  const results = await Promise.all(
    servers.map((server) => {
      const options =
        op === 'POST'
          ? {
              url: `${server.url}/api/v1/issues`,
              method: 'POST',
              requests: [
                {
                  // Each create goes to the next workspace in turn (one, or six).
                  setupRequest: (req) => {
                    const { token, projectId } = target.workspaces[next++ % target.workspaces.length];
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
              url: `${server.url}/api/v1/issues/${target.issueId}`,
              headers: { authorization: `Bearer ${target.workspaces[0].token}` },
            };
      return autocannon({ ...options, duration: seconds, connections: per });
    }),
  );
  const elapsedMicros = (performance.now() - startedAt) * 1000;
  const self = process.cpuUsage(selfBefore);
  const proxyCpu = proxyPid === null ? 0 : cpuMicros(proxyPid) - proxyCpuBefore;
  const cpu = servers.reduce((sum, s, i) => sum + cpuMicros(s.pid) - cpuBefore[i], 0);
  let backendCpu = 0;
  if (withBackends) {
    for (const pid of await backendPids()) backendCpu += cpuMicros(pid) - (backendCpuBefore.get(pid) ?? 0);
  }
  const rolledBack = withBackends ? (await rollbacks()) - rollbacksBefore : null;
  const ok = results.reduce((sum, r) => sum + r.requests.total - r.non2xx - r.errors, 0);
  const failed = results.reduce((sum, r) => sum + r.non2xx + r.errors, 0);
  const statusCounts = {};
  for (const r of results)
    for (const [code, n] of Object.entries(r.statusCodeStats ?? {}))
      statusCounts[code] = (statusCounts[code] ?? 0) + n.count;
  return {
    rps: ok / seconds,
    // Servers, their backends, the proxy and the load generator: near the core count, the machine was the bound.
    coresBusy: (cpu + backendCpu + proxyCpu + self.user + self.system) / elapsedMicros,
    proxyCpuPerRequest: proxyPid !== null && ok > 0 ? proxyCpu / ok : null,
    p99: Math.max(...results.map((r) => r.latency.p99)),
    cpuPerRequest: ok > 0 ? cpu / ok : 0,
    backendCpuPerRequest: withBackends && ok > 0 ? backendCpu / ok : null,
    rollbacksPerRequest: rolledBack !== null && ok > 0 ? rolledBack / ok : null,
    failed,
    statusCounts,
  };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

// The servers: one on a SQLite file; three on one PostgreSQL schema, and three more on it behind
// the delaying proxy.
const dir = mkdtempSync(join(tmpdir(), 'ot-bench-pg-'));
const schema = 'bench';
const pgUrl = new URL(dbUrl);
pgUrl.searchParams.set('schema', schema);
pgUrl.searchParams.set('application_name', appName);

const proxy = spawn(
  process.execPath,
  [
    new URL('./delay-proxy.js', import.meta.url).pathname,
    dbUrl.hostname || '127.0.0.1',
    dbUrl.port || '5432',
    String(delayMs),
  ],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
const proxyPort = await (async () => {
  for await (const chunk of proxy.stdout) {
    proxy.stdout.resume();
    return JSON.parse(String(chunk).split('\n')[0]).port;
  }
  throw new Error('the delay proxy did not start');
})();
const proxiedUrl = new URL(pgUrl);
proxiedUrl.hostname = '127.0.0.1';
proxiedUrl.port = String(proxyPort);

// The same database through its Unix socket (libpq's form: no host, `?host=<directory>`), when
// the server listens on one: the driver's reads and writes skip the TCP stack.
const socketDirectory = (await monitor.query('SHOW unix_socket_directories')).rows[0]?.unix_socket_directories
  ?.split(',')[0]
  ?.trim();
const socketUrl = socketDirectory
  ? `postgres://${encodeURIComponent(dbUrl.username || 'postgres')}@/${database}?host=${encodeURIComponent(socketDirectory)}&schema=${schema}&application_name=${appName}`
  : null;

const sqliteDb = join(dir, 'bench.db');
const sqliteTokens = await initWorkspaces(sqliteDb);
const pgTokens = await initWorkspaces(pgUrl.toString());
const sqliteServer = await startServe(sqliteDb);
const sqliteSeed = await seed(sqliteServer, sqliteTokens);
const local = [];
for (let i = 0; i < 3; i++) local.push(await startServe(pgUrl.toString()));
const proxied = [];
for (let i = 0; i < 3; i++) proxied.push(await startServe(proxiedUrl.toString()));
// One more process whose commits do not wait for their WAL flush (synchronous_commit = off,
// through the URL's `options`): the durability SQLite's `synchronous = NORMAL` gives, near enough
// (a crash of the database server may lose the last commits, never half of one). It shows how
// much of a create is the flush, which a project's counter lock spans.
const asyncUrl = new URL(pgUrl);
asyncUrl.searchParams.set('options', '-c synchronous_commit=off');
const asyncCommit = [await startServe(asyncUrl.toString())];
const overSocket = socketUrl ? [await startServe(socketUrl)] : [];
const pgSeed = await seed(local[0], pgTokens);

const oneProject = (seeded) => ({ workspaces: seeded.workspaces.slice(0, 1), issueId: seeded.issueId });
const configs = [];
for (const [load_, pick] of [
  ['one project', oneProject],
  ['6 workspaces', (seeded) => seeded],
]) {
  configs.push({
    op: 'POST',
    name: `SQLite, 1 process, ${load_}`,
    servers: [sqliteServer],
    target: pick(sqliteSeed),
    pg: false,
    base: `SQLite, ${load_}`,
  });
  for (const n of [1, 2, 3]) {
    configs.push({
      op: 'POST',
      name: `PostgreSQL, ${n} process${n > 1 ? 'es' : ''}, ${load_}`,
      servers: local.slice(0, n),
      target: pick(pgSeed),
      pg: true,
      base: `SQLite, ${load_}`,
    });
  }
  configs.push({
    op: 'POST',
    name: `PostgreSQL, 1 process, synchronous_commit off, ${load_}`,
    servers: asyncCommit,
    target: pick(pgSeed),
    pg: true,
    base: `SQLite, ${load_}`,
  });
  if (overSocket.length > 0) {
    configs.push({
      op: 'POST',
      name: `PostgreSQL, 1 process, Unix socket, ${load_}`,
      servers: overSocket,
      target: pick(pgSeed),
      pg: true,
      base: `SQLite, ${load_}`,
    });
  }
}
for (const n of [1, 2, 3]) {
  configs.push({
    op: 'POST',
    name: `PostgreSQL +${delayMs} ms, ${n} process${n > 1 ? 'es' : ''}, 6 workspaces`,
    servers: proxied.slice(0, n),
    target: pgSeed,
    pg: true,
    proxied: true,
    base: 'SQLite, 6 workspaces',
  });
}
configs.push({
  op: 'GET',
  name: 'SQLite, 1 process',
  servers: [sqliteServer],
  target: sqliteSeed,
  pg: false,
  base: 'SQLite GET',
});
configs.push({
  op: 'GET',
  name: 'PostgreSQL, 1 process',
  servers: local.slice(0, 1),
  target: pgSeed,
  pg: true,
  base: 'SQLite GET',
});
if (overSocket.length > 0) {
  configs.push({
    op: 'GET',
    name: 'PostgreSQL, 1 process, Unix socket',
    servers: overSocket,
    target: pgSeed,
    pg: true,
    base: 'SQLite GET',
  });
}
configs.push({
  op: 'GET',
  name: 'PostgreSQL, 3 processes',
  servers: local,
  target: pgSeed,
  pg: true,
  base: 'SQLite GET',
});

const measured = new Map();
try {
  for (let round = 0; round < rounds; round++) {
    // Alternate the order, so no configuration always runs first or last.
    const order = round % 2 === 0 ? configs : [...configs].reverse();
    for (const config of order) {
      const key = `${config.op} ${config.name}`;
      const result = await load(
        config.op,
        config.servers,
        config.target,
        config.pg,
        config.proxied ? proxy.pid : null,
      );
      measured.set(key, [...(measured.get(key) ?? []), result]);
      process.stderr.write(`round ${round + 1}: ${key}: ${result.rps.toFixed(0)} req/s\n`);
    }
  }

  console.log(
    `\nmedians of ${rounds} alternating rounds, ${seconds}s each, ${connections} connections split over the processes;` +
      ` serve processes of ${cli} (request log to /dev/null), rate limit off\n`,
  );
  const header = [
    'request',
    'configuration',
    'req/s',
    'vs SQLite',
    'p99 ms',
    'node µs/req',
    'PG µs/req',
    'proxy µs/req',
    'cores busy',
    'rollbacks/req',
    'non-2xx',
  ];
  const rows = [];
  const rpsOf = (key) => median(measured.get(key).map((r) => r.rps));
  for (const config of configs) {
    const results = measured.get(`${config.op} ${config.name}`);
    const baseConfig = configs.find((c) => c.base === config.base && !c.pg);
    const rps = median(results.map((r) => r.rps));
    const perRequest = (field, digits) =>
      results[0][field] === null ? '-' : median(results.map((r) => r[field])).toFixed(digits);
    const failed = results.reduce((sum, r) => sum + r.failed, 0);
    const codes = Object.entries(
      results.reduce((all, r) => {
        for (const [code, n] of Object.entries(r.statusCounts))
          if (!code.startsWith('2')) all[code] = (all[code] ?? 0) + n;
        return all;
      }, {}),
    )
      .map(([code, n]) => `${n}×${code}`)
      .join(' ');
    rows.push([
      config.op === 'POST' ? 'POST /issues' : 'GET /issues/{id}',
      config.name,
      rps.toFixed(0),
      (rps / rpsOf(`${baseConfig.op} ${baseConfig.name}`)).toFixed(2),
      String(median(results.map((r) => r.p99))),
      median(results.map((r) => r.cpuPerRequest)).toFixed(0),
      perRequest('backendCpuPerRequest', 0),
      perRequest('proxyCpuPerRequest', 0),
      median(results.map((r) => r.coresBusy)).toFixed(2),
      perRequest('rollbacksPerRequest', 3),
      failed === 0 ? '0' : codes || String(failed),
    ]);
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const row of rows) console.log(line(row));
  const scaling =
    rpsOf(`POST PostgreSQL +${delayMs} ms, 3 processes, 6 workspaces`) /
    rpsOf(`POST PostgreSQL +${delayMs} ms, 1 process, 6 workspaces`);
  console.log(`\nbehind the proxy, 6 workspaces: 3 processes make ${scaling.toFixed(2)}× the creates of one`);
} finally {
  for (const server of [sqliteServer, ...local, ...asyncCommit, ...overSocket, ...proxied])
    await stop(server);
  proxy.kill('SIGTERM');
}

if (process.env.BENCH_PROFILE === '1') {
  // Where one PostgreSQL process's time goes under POST load: self time per function.
  const profileDir = join(dir, 'profile');
  const profiled = await startServe(pgUrl.toString(), ['--cpu-prof', `--cpu-prof-dir=${profileDir}`]);
  await load('POST', [profiled], pgSeed, true);
  await stop(profiled);
  const file = readdirSync(profileDir).find((name) => name.endsWith('.cpuprofile'));
  const profile = JSON.parse(readFileSync(join(profileDir, file), 'utf8'));
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const interval = (profile.endTime - profile.startTime) / profile.samples.length;
  const byArea = new Map();
  const byFunction = new Map();
  const add = (map, key) => map.set(key, (map.get(key) ?? 0) + interval);
  for (const id of profile.samples) {
    const { functionName, url } = byId.get(id).callFrame;
    const area = areaOf(functionName, url);
    add(byArea, area);
    add(byFunction, `${functionName || '(anonymous)'} [${area}]`);
  }
  const busy = [...byArea].filter(([area]) => area !== '(idle)').reduce((sum, [, micros]) => sum + micros, 0);
  const top = (map) =>
    [...map]
      .filter(([key]) => !key.startsWith('(idle)'))
      .sort((a, b) => b[1] - a[1])
      .slice(0, 14)
      .map(([key, micros]) => `  ${((micros / busy) * 100).toFixed(1).padStart(5)}%  ${key}`);
  console.log('\none PostgreSQL process under POST load (--cpu-prof), share of its busy time by area:');
  for (const line of top(byArea)) console.log(line);
  console.log('by function:');
  for (const line of top(byFunction)) console.log(line);
}

/** Where a function lives: a package, a folder of dist/, a Node module, or V8's own entries. */
function areaOf(functionName, url) {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (pkg) return pkg[1];
  const dist = /\/dist\/((?:[^/]+\/)?[^/]+)\//.exec(url);
  if (dist) return `dist/${dist[1]}`;
  if (url.startsWith('node:')) return url.split('/').slice(0, 2).join('/');
  return basename(url);
}

await monitor.end();
await admin.query(`DROP DATABASE ${database} WITH (FORCE)`);
await admin.end();
rmSync(dir, { recursive: true, force: true });
