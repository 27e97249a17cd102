// PostgreSQL benchmark: POST /api/v1/issues and GET /api/v1/issues/{id} through 1, 2 and 3
// `serve` processes of the built CLI on one PostgreSQL schema, against one `serve` on a SQLite
// file measured in the same run, under the same load (the same total connections, split evenly
// over the processes). Rounds alternate the configurations; the table shows medians. CPU per
// request is utime+stime from /proc/<pid>/stat of every loaded server process, and of the
// PostgreSQL backends serving them. BENCH_PROFILE=1 also profiles one process (--cpu-prof) and
// prints where its time goes; BENCH_PG_LOG=<server log> counts the transactions PostgreSQL made
// the adapter run again. Needs BENCH_DATABASE_URL or TEST_DATABASE_URL; Linux (/proc).
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';

const serverUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
if (!serverUrl) {
  console.error('bench/postgres.js needs BENCH_DATABASE_URL or TEST_DATABASE_URL (a postgres:// URL)');
  process.exit(2);
}
const seconds = Number(process.env.BENCH_SECONDS ?? 4);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 12);
const cli = new URL('../dist/cli/main.js', import.meta.url).pathname;
const ticksPerSecond = 100; // USER_HZ on Linux
// Optional: the PostgreSQL server log, to count the serialization failures and deadlocks of the
// benchmark's own backends (each one a transaction the adapter ran again).
const serverLog = process.env.BENCH_PG_LOG;
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

async function stop(server) {
  if (server.child.exitCode !== null) return;
  server.child.kill('SIGTERM');
  await once(server.child, 'exit');
}

async function postJson(url, token, path, body) {
  const response = await fetch(`${url}/api/v1${path}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'idempotency-key': randomUUID(),
    },
    body: JSON.stringify(body),
  });
  if (response.status !== 201) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

/** A project and one issue to read back, made through the first server. */
async function seed(server, token) {
  const project = await postJson(server.url, token, '/projects', { name: 'Bench' });
  const issue = await postJson(server.url, token, '/issues', { projectId: project.id, title: 'Read me' });
  return { projectId: project.id, issueId: issue.id };
}

const monitor = new pg.Client({ connectionString: serverUrl });
await monitor.connect();

/** The backends serving the benchmark's servers (their pool connections carry our application_name). */
async function backendPids() {
  const { rows } = await monitor.query('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [
    appName,
  ]);
  return rows.map((r) => r.pid);
}

/**
 * Table statistics of the benchmark's schema alone (the database may serve others): index and
 * sequential scans, and rows written. Backends publish them at most once a second, hence the pause.
 */
async function schemaCounters() {
  await new Promise((resolve) => setTimeout(resolve, 1100));
  const { rows } = await monitor.query(
    'SELECT coalesce(sum(coalesce(idx_scan, 0) + seq_scan), 0) AS scans, ' +
      'coalesce(sum(n_tup_ins + n_tup_upd + n_tup_del), 0) AS writes FROM pg_stat_user_tables WHERE schemaname = $1',
    [schema],
  );
  return { scans: Number(rows[0].scans), writes: Number(rows[0].writes) };
}

/** Loads every server of `servers` at once, `connections / servers.length` connections each. */
async function load(op, servers, target, withBackends) {
  const per = Math.max(1, Math.round(connections / servers.length));
  const backendsBefore = withBackends ? await backendPids() : [];
  const cpuBefore = servers.map((s) => cpuMicros(s.pid));
  const backendCpuBefore = new Map(backendsBefore.map((pid) => [pid, cpuMicros(pid)]));
  const countersBefore = withBackends ? await schemaCounters() : null;
  const logBefore = withBackends && serverLog ? statSync(serverLog).size : 0;
  const results = await Promise.all(
    servers.map((server) => {
      const headers = { authorization: `Bearer ${target.token}`, 'content-type': 'application/json' };
      const options =
        op === 'POST'
          ? {
              url: `${server.url}/api/v1/issues`,
              method: 'POST',
              headers,
              body: JSON.stringify({
                projectId: target.projectId,
                title: 'Benchmark issue',
                severity: 'high',
              }),
              requests: [
                {
                  setupRequest: (req) => ({
                    ...req,
                    headers: { ...req.headers, 'idempotency-key': randomUUID() },
                  }),
                },
              ],
            }
          : { url: `${server.url}/api/v1/issues/${target.issueId}`, headers };
      return autocannon({ ...options, duration: seconds, connections: per });
    }),
  );
  const cpu = servers.reduce((sum, s, i) => sum + cpuMicros(s.pid) - cpuBefore[i], 0);
  let backendCpu = 0;
  if (withBackends) {
    for (const pid of await backendPids()) backendCpu += cpuMicros(pid) - (backendCpuBefore.get(pid) ?? 0);
  }
  const counters = withBackends ? await schemaCounters() : null;
  let conflicts = null;
  if (withBackends && serverLog) {
    const pids = new Set([...backendsBefore, ...(await backendPids())].map(String));
    const appended = readFileSync(serverLog).subarray(logBefore).toString('utf8');
    conflicts = 0;
    for (const match of appended.matchAll(
      /\[(\d+)\][^\n]*ERROR: {2}(could not serialize access|deadlock detected)/g,
    )) {
      if (pids.has(match[1])) conflicts++;
    }
  }
  const ok = results.reduce((sum, r) => sum + r.requests.total - r.non2xx - r.errors, 0);
  const failed = results.reduce((sum, r) => sum + r.non2xx + r.errors, 0);
  const statusCounts = {};
  for (const r of results)
    for (const [code, n] of Object.entries(r.statusCodeStats ?? {}))
      statusCounts[code] = (statusCounts[code] ?? 0) + n.count;
  return {
    rps: ok / seconds,
    p99: Math.max(...results.map((r) => r.latency.p99)),
    cpuPerRequest: ok > 0 ? cpu / ok : 0,
    backendCpuPerRequest: withBackends && ok > 0 ? backendCpu / ok : null,
    conflictsPerRequest: conflicts !== null && ok > 0 ? conflicts / ok : null,
    scansPerRequest: counters && ok > 0 ? (counters.scans - countersBefore.scans) / ok : null,
    writesPerRequest: counters && ok > 0 ? (counters.writes - countersBefore.writes) / ok : null,
    failed,
    statusCounts,
  };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

// The servers: one on a SQLite file, three on one fresh PostgreSQL schema.
const dir = mkdtempSync(join(tmpdir(), 'ot-bench-pg-'));
const schema = `ot_bench_${randomBytes(5).toString('hex')}`;
const pgUrl = new URL(serverUrl);
pgUrl.searchParams.set('schema', schema);
pgUrl.searchParams.set('application_name', appName);

const sqliteServer = await startServe(join(dir, 'bench.db'));
const sqliteTarget = { token: sqliteServer.token, ...(await seed(sqliteServer, sqliteServer.token)) };
const first = await startServe(pgUrl.toString());
const pgServers = [first, await startServe(pgUrl.toString()), await startServe(pgUrl.toString())];
const pgTarget = { token: first.token, ...(await seed(first, first.token)) };

const configs = [
  { name: 'SQLite, 1 process', servers: [sqliteServer], target: sqliteTarget, pg: false },
  { name: 'PostgreSQL, 1 process', servers: pgServers.slice(0, 1), target: pgTarget, pg: true },
  { name: 'PostgreSQL, 2 processes', servers: pgServers.slice(0, 2), target: pgTarget, pg: true },
  { name: 'PostgreSQL, 3 processes', servers: pgServers, target: pgTarget, pg: true },
];
const measured = new Map();
try {
  // A short warm-up of every configuration, not measured.
  for (const config of configs) await load('GET', config.servers, config.target, false);
  for (let round = 0; round < rounds; round++) {
    // Alternate the order, so no configuration always runs first or last.
    const order = round % 2 === 0 ? configs : [...configs].reverse();
    for (const op of ['POST', 'GET']) {
      for (const config of order) {
        const key = `${op} ${config.name}`;
        const result = await load(op, config.servers, config.target, config.pg);
        measured.set(key, [...(measured.get(key) ?? []), result]);
        process.stderr.write(`round ${round + 1}: ${key}: ${result.rps.toFixed(0)} req/s\n`);
      }
    }
  }

  console.log(
    `\nmedians of ${rounds} alternating rounds, ${seconds}s each, ${connections} connections split over the processes;` +
      ` serve processes of the built CLI (request log to /dev/null), rate limit off\n`,
  );
  const header = [
    'request',
    'configuration',
    'req/s',
    'vs SQLite',
    'p99 ms',
    'node µs/req',
    'PG µs/req',
    'scans/req',
    'row writes/req',
    're-runs/req',
    'non-2xx',
  ];
  const rows = [];
  for (const op of ['POST', 'GET']) {
    const baseline = median(measured.get(`${op} ${configs[0].name}`).map((r) => r.rps));
    for (const config of configs) {
      const results = measured.get(`${op} ${config.name}`);
      const rps = median(results.map((r) => r.rps));
      const backend =
        results[0].backendCpuPerRequest === null
          ? '-'
          : median(results.map((r) => r.backendCpuPerRequest)).toFixed(0);
      const perRequest = (field) =>
        results[0][field] === null ? '-' : median(results.map((r) => r[field])).toFixed(1);
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
        op === 'POST' ? 'POST /issues' : 'GET /issues/{id}',
        config.name,
        rps.toFixed(0),
        (rps / baseline).toFixed(2),
        String(median(results.map((r) => r.p99))),
        median(results.map((r) => r.cpuPerRequest)).toFixed(0),
        backend,
        perRequest('scansPerRequest'),
        perRequest('writesPerRequest'),
        results[0].conflictsPerRequest === null
          ? '-'
          : median(results.map((r) => r.conflictsPerRequest)).toFixed(2),
        failed === 0 ? '0' : codes || String(failed),
      ]);
    }
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const row of rows) console.log(line(row));
} finally {
  for (const server of [sqliteServer, ...pgServers]) await stop(server);
}

if (process.env.BENCH_PROFILE === '1') {
  // Where one PostgreSQL process's time goes under POST load: self time per function.
  const profileDir = join(dir, 'profile');
  const profiled = await startServe(pgUrl.toString(), ['--cpu-prof', `--cpu-prof-dir=${profileDir}`]);
  await load('POST', [profiled], pgTarget, true);
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

await monitor.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
await monitor.end();
rmSync(dir, { recursive: true, force: true });
