// Efficiency against the floors (bench/floor-server.js): the server CPU a request costs the bare
// floor divided by what it costs `serve`, as shipped (default flags, the rate limit raised out of
// the load's way) and lean (--rate-limit 0 --storage-time 0 --log-level warn). CPU per request is
// read from /proc (the schedstat run time of every thread of the process, in ns; and of the
// PostgreSQL backends serving it) over a fixed number of requests, in rounds that alternate the
// servers' order; the figures are medians of the rounds. SQLite's work runs inside the node
// process, so its floor CPU is one figure; PostgreSQL's splits into node and database.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { post, stop } from './serve-process.js';
import { median } from './support.js';

/** How many rounds' worth of requests each server gets before the measured rounds (BENCH_WARMUP). */
const warmUpRounds = Number(process.env.BENCH_WARMUP ?? 3);

const cli = process.env.BENCH_CLI || new URL('../dist/cli/main.js', import.meta.url).pathname;
const floorScript = new URL('./floor-server.js', import.meta.url).pathname;
/**
 * `serve`'s flags: as shipped keeps every default but the request limit, which a load would hit
 * (the limiter still runs: it never says no). On PostgreSQL the storage-time share is off too:
 * shared by every process there, it answers a single account's load with 429s.
 */
export const serveFlags = {
  shipped: ['--rate-limit', '100000000'],
  shippedPostgres: ['--rate-limit', '100000000', '--storage-time', '0'],
  lean: ['--rate-limit', '0', '--storage-time', '0', '--log-level', 'warn'],
};

/** CPU ns a process has run, all its threads (/proc/<pid>/task/<tid>/schedstat); 0 once gone. */
export function cpuNanos(pid) {
  let total = 0;
  let tasks;
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return 0;
  }
  for (const tid of tasks) {
    try {
      total += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // A thread that ended between the listing and the read.
    }
  }
  return total;
}

/** Spawns a server process; resolves with its pid and URL once it says where it listens. */
async function start(args, pattern) {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'ignore'] });
  let buffered = '';
  for await (const chunk of child.stdout) {
    buffered += chunk;
    const url = pattern(buffered);
    if (url) {
      child.stdout.resume();
      return { child, pid: child.pid, url };
    }
  }
  throw new Error(`${args.join(' ')} did not start`);
}

const startFloor = (...args) =>
  start([floorScript, ...args], (out) => {
    const match = /ready (\d+)\n/.exec(out);
    return match && `http://127.0.0.1:${match[1]}`;
  });

const startServe = (db, flags) =>
  start([cli, 'serve', '--db', db, '--port', '0', '--json', ...flags], (out) => {
    const line = out.split('\n').find((l) => l.startsWith('{"url"'));
    return line && JSON.parse(line).url.replace(/\/$/, '');
  });

async function runCli(args) {
  const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  for await (const chunk of child.stdout) out += chunk;
  const [code] = await once(child, 'exit');
  if (code !== 0) throw new Error(`outcome-tracker ${args[0]} exited with ${code}`);
  return out;
}

/** The autocannon options of a GET of `issueId` or a create spread over `workspaces`. */
function requestOf(op, target) {
  if (op === 'GET') {
    return {
      path: `/api/v1/issues/${target.issueId}`,
      headers: { authorization: `Bearer ${target.workspaces[0].token}` },
    };
  }
  let next = 0;
  return {
    path: '/api/v1/issues',
    method: 'POST',
    requests: [
      {
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
  };
}

/**
 * `amount` requests at `connections` at once; the CPU ns per request of the server (and of
 * `backends()`'s processes, when given). Any answer but 2xx fails the benchmark.
 */
async function measureCpu(server, request, amount, connections, backends) {
  const pidsBefore = backends ? await backends() : [];
  const backendBefore = new Map(pidsBefore.map((pid) => [pid, cpuNanos(pid)]));
  const before = cpuNanos(server.pid);
  const result = await autocannon({
    ...request,
    url: server.url + request.path,
    amount,
    connections,
    timeout: 60,
  });
  const node = cpuNanos(server.pid) - before;
  let database = 0;
  if (backends) for (const pid of await backends()) database += cpuNanos(pid) - (backendBefore.get(pid) ?? 0);
  const failed = result.non2xx + result.errors + result.timeouts;
  if (failed > 0) {
    throw new Error(
      `${server.name} ${request.path}: ${failed} of ${amount} failed (${JSON.stringify(result.statusCodeStats)})`,
    );
  }
  const n = result.requests.total;
  return { nodeUs: node / n / 1000, databaseUs: database / n / 1000 };
}

/**
 * Rounds of every (request, server) pair, the servers' order alternating; per pair, the medians
 * of node and database µs per request.
 */
async function rounds(servers, ops, count, { amounts, connections, backends }) {
  const samples = new Map();
  for (const server of servers) {
    // Warm-up, so that the rounds measure compiled code and filled caches, not the compiler:
    // under creates on PostgreSQL, `serve`'s optimising compiler (threads of the process, counted
    // in its CPU) was still about a tenth of its CPU samples (`perf`) after 1,000 creates, and
    // under 1% after 24,000.
    for (const op of ops)
      await measureCpu(server, requestOf(op, server.target), amounts[op] * warmUpRounds, connections);
  }
  for (let round = 0; round < count; round++) {
    for (const op of ops) {
      for (const server of round % 2 ? [...servers].reverse() : servers) {
        if (!server.ops.includes(op)) continue;
        const backendPids = backends ? () => backends(server) : null;
        const sample = await measureCpu(
          server,
          requestOf(op, server.target),
          amounts[op],
          connections,
          backendPids,
        );
        const key = `${server.name} ${op}`;
        samples.set(key, [...(samples.get(key) ?? []), sample]);
      }
    }
  }
  const result = {};
  for (const [key, list] of samples) {
    result[key] = {
      nodeUs: median(list.map((s) => s.nodeUs)),
      databaseUs: median(list.map((s) => s.databaseUs)),
    };
  }
  return result;
}

/** A copy of a SQLite file (checkpointed: its server has stopped). */
function copyOf(file, name) {
  const copy = `${file}.${name}`;
  copyFileSync(file, copy);
  for (const suffix of ['-wal', '-shm'])
    if (existsSync(file + suffix)) copyFileSync(file + suffix, copy + suffix);
  return copy;
}

/**
 * SQLite: GET by id against the bare constant and the bare better-sqlite3 read, POST against the
 * bare echo and the bare better-sqlite3 create; `serve` as shipped and lean. Returns table rows.
 */
export async function sqliteEfficiency({ count = 3, gets = 6000, posts = 3000, connections = 32 } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'ot-efficiency-'));
  const file = join(dir, 'tracker.db');
  try {
    const { token } = JSON.parse(
      await runCli([
        'init',
        '--db',
        file,
        '--workspace',
        'bench',
        '--admin-email',
        'bench@example.com',
        '--json',
      ]),
    );
    const seeding = await startServe(file, serveFlags.lean);
    const project = await post(seeding.url, token, '/projects', { name: 'Bench' });
    const issue = await post(seeding.url, token, '/issues', { projectId: project.id, title: 'Read me' });
    await stop(seeding);
    const target = { workspaces: [{ token, projectId: project.id }], issueId: issue.id };
    const servers = [
      { name: 'bare', ops: ['GET', 'POST'], ...(await startFloor('constant')) },
      {
        name: 'bare better-sqlite3',
        ops: ['GET', 'POST'],
        ...(await startFloor('sqlite', copyOf(file, 'floor'))),
      },
      {
        name: 'serve as shipped',
        ops: ['GET', 'POST'],
        ...(await startServe(copyOf(file, 'shipped'), serveFlags.shipped)),
      },
      {
        name: 'serve lean',
        ops: ['GET', 'POST'],
        ...(await startServe(copyOf(file, 'lean'), serveFlags.lean)),
      },
    ].map((server) => ({ ...server, target }));
    try {
      const m = await rounds(servers, ['GET', 'POST'], count, {
        amounts: { GET: gets, POST: posts },
        connections,
      });
      const rows = [];
      for (const op of ['GET', 'POST']) {
        for (const floor of ['bare', 'bare better-sqlite3']) {
          for (const variant of ['serve as shipped', 'serve lean']) {
            const f = m[`${floor} ${op}`].nodeUs;
            const ours = m[`${variant} ${op}`].nodeUs;
            const floorName = floor === 'bare' ? (op === 'GET' ? 'bare constant' : 'bare echo') : floor;
            rows.push([
              op === 'GET' ? 'GET /issues/{id}' : 'POST /issues',
              floorName,
              variant,
              `${f.toFixed(0)} µs`,
              `${ours.toFixed(0)} µs`,
              (f / ours).toFixed(2),
            ]);
          }
        }
      }
      return {
        header: [
          `SQLite file, c=${connections}`,
          'floor',
          'tracker',
          'floor CPU/req',
          'tracker CPU/req',
          'efficiency',
        ],
        rows,
      };
    } finally {
      for (const server of servers) await stop(server);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * PostgreSQL: the bare node:http + pg floor (one prepared statement a request) against `serve`
 * as shipped and lean, on one schema of a database made for the run: creates spread over 6
 * workspaces, GETs of one issue; node and database CPU apart. Returns table rows.
 */
export async function postgresEfficiency(
  serverUrl,
  { count = 3, gets = 6000, posts = 3000, connections = 48 } = {},
) {
  const { default: pg } = await import('pg');
  const database = `ot_efficiency_${randomUUID().slice(0, 8)}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  const dbUrl = new URL(serverUrl);
  dbUrl.pathname = `/${database}`;
  const monitor = new pg.Client({ connectionString: dbUrl.toString() });
  await monitor.connect();
  const urlFor = (app) => {
    const url = new URL(dbUrl);
    url.searchParams.set('schema', 'bench');
    url.searchParams.set('application_name', app);
    return url.toString();
  };
  const servers = [];
  try {
    const workspaces = [];
    for (let w = 0; w < 6; w++) {
      const out = await runCli([
        'init',
        '--db',
        urlFor('ot-init'),
        '--workspace',
        `bench-${w}`,
        '--admin-email',
        `bench${w}@example.com`,
        '--json',
      ]);
      workspaces.push({ token: JSON.parse(out).token });
    }
    const seeding = await startServe(urlFor('ot-seed'), serveFlags.lean);
    for (const workspace of workspaces) {
      workspace.projectId = (await post(seeding.url, workspace.token, '/projects', { name: 'Bench' })).id;
    }
    const issue = await post(seeding.url, workspaces[0].token, '/issues', {
      projectId: workspaces[0].projectId,
      title: 'Read me',
    });
    await stop(seeding);
    const target = { workspaces, issueId: issue.id };
    for (const [name, app, launch] of [
      ['bare pg', 'ot-floor', (url) => startFloor('postgres', url)],
      ['serve as shipped', 'ot-shipped', (url) => startServe(url, serveFlags.shippedPostgres)],
      ['serve lean', 'ot-lean', (url) => startServe(url, serveFlags.lean)],
    ]) {
      servers.push({ name, app, ops: ['GET', 'POST'], target, ...(await launch(urlFor(app))) });
    }
    const backends = async (server) =>
      (
        await monitor.query('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [server.app])
      ).rows.map((r) => r.pid);
    const m = await rounds(servers, ['GET', 'POST'], count, {
      amounts: { GET: gets, POST: posts },
      connections,
      backends,
    });
    const rows = [];
    for (const op of ['GET', 'POST']) {
      const f = m[`bare pg ${op}`];
      for (const variant of ['serve as shipped', 'serve lean']) {
        const ours = m[`${variant} ${op}`];
        const total = (x) => x.nodeUs + x.databaseUs;
        rows.push([
          op === 'GET' ? 'GET /issues/{id}' : 'POST /issues (6 workspaces)',
          variant,
          `${f.nodeUs.toFixed(0)} + ${f.databaseUs.toFixed(0)} µs`,
          `${ours.nodeUs.toFixed(0)} + ${ours.databaseUs.toFixed(0)} µs`,
          (f.nodeUs / ours.nodeUs).toFixed(2),
          (f.databaseUs / ours.databaseUs).toFixed(2),
          (total(f) / total(ours)).toFixed(2),
        ]);
      }
    }
    return {
      header: [
        `PostgreSQL, c=${connections}`,
        'tracker',
        'floor node + database',
        'tracker node + database',
        'node efficiency',
        'database efficiency',
        'efficiency',
      ],
      rows,
    };
  } finally {
    for (const server of servers) await stop(server);
    await monitor.end();
    await admin.query(`DROP DATABASE ${database} WITH (FORCE)`);
    await admin.end();
  }
}

/** A table as aligned Markdown lines. */
export function tableLines({ header, rows }) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)];
}

// Run alone (`node bench/efficiency.js [sqlite|postgres]`): the efficiency tables only.
if (import.meta.url === `file://${process.argv[1]}`) {
  const which = process.argv[2] ?? 'sqlite';
  const count = Number(process.env.BENCH_ROUNDS ?? 3);
  if (which === 'sqlite') console.log(tableLines(await sqliteEfficiency({ count })).join('\n'));
  else {
    const url = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
    if (!url) throw new Error('needs BENCH_DATABASE_URL or TEST_DATABASE_URL');
    console.log(tableLines(await postgresEfficiency(url, { count })).join('\n'));
  }
}
