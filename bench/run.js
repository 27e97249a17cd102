// `npm run bench`: every performance figure of the tracker, printed as one table. CPU time of the
// server process per request (from /proc) is the steady figure on a shared machine; requests/s
// and latencies are printed next to it. The first table is the efficiency against the floors
// (bench/efficiency.js; BENCH_ONLY=efficiency prints it alone). Environment: BENCH_ROUNDS (default 21), BENCH_REQUESTS
// (GETs per round, default 2,500), BENCH_LARGE (issues in the large database, default 1,000,000,
// which the export row exports too; set it lower for a quick run),
// BENCH_DIR (where seeded databases are kept between runs), BENCH_WEBHOOK_EVENTS (default 5,000).
import { fork } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { batchVersusSingles } from './batch.js';
import { sqliteEfficiency, tableLines } from './efficiency.js';
import { measureExport } from './export.js';
import {
  compareServers,
  issueRequests,
  pairedRatio,
  withServers,
  withTimeOrderedCreate,
} from './http-cpu.js';
import { listLatencies } from './list.js';
import { seedDatabase, workingCopy } from './seed.js';
import { medianRun } from './support.js';

// Many short rounds rather than a few long ones: on a shared machine one round's CPU per request
// strays by a third either way whether it lasts a fifth of a second or a second (measured), so the
// median of 21 paired ratios is about twice as steady as the median of 5, for the same requests.
const rounds = Number(process.env.BENCH_ROUNDS ?? 21);
const amount = Number(process.env.BENCH_REQUESTS ?? 2500);
const large = Number(process.env.BENCH_LARGE ?? 1_000_000);
// Seeded files are reused while the schema (every migration) is unchanged.
const migrationsDir = new URL('../dist/adapters/sqlite/migrations/', import.meta.url);
const schemaHash = createHash('sha256');
for (const name of readdirSync(migrationsDir).sort())
  schemaHash.update(readFileSync(new URL(name, migrationsDir)));
const schema = schemaHash.digest('hex').slice(0, 8);
const dir = process.env.BENCH_DIR ?? join(tmpdir(), 'outcome-tracker-bench');
mkdirSync(dir, { recursive: true });

const lines = [];
const row = (...cells) => lines.push(`| ${cells.join(' | ')} |`);
const us = (n) => `${n.toFixed(1)} µs`;
const log = (message) => console.error(`[bench] ${message}`);

// First, the efficiency against the floors (bench/efficiency.js): serve as shipped and lean.
log('efficiency: serve against the bare floors, SQLite');
const efficiency = await sqliteEfficiency({ count: Number(process.env.BENCH_EFFICIENCY_ROUNDS ?? 3) });
if (process.env.BENCH_ONLY === 'efficiency') {
  console.log(tableLines(efficiency).join('\n'));
  process.exit(0);
}

log('seeding 10k issues');
const smallSeed = join(dir, `seeded-10k-${schema}.db`);
const small = await seedDatabase(smallSeed, 10_000);
log(`seeding ${large} issues (first run only)`);
const largeSeed = join(dir, `seeded-${large}-${schema}.db`);
const big = await seedDatabase(largeSeed, large);
log('copying the seeded files for this run');
const nodeFile = workingCopy(smallSeed, 'node');
const honoFile = workingCopy(smallSeed, 'hono');
const largeFile = workingCopy(largeSeed);

log('HTTP: raw vs Node host vs Hono host');
const hosts = await withServers(
  [
    ['raw', 'raw', nodeFile, small],
    ['node', 'node', nodeFile, small],
    ['hono', 'hono', honoFile, small],
  ],
  (servers) => compareServers(servers, withTimeOrderedCreate(issueRequests(small, amount)), rounds),
);
row(
  'request (10k issues, SQLite file, c=50)',
  'raw CPU/req',
  'Node CPU/req',
  'efficiency (raw/Node CPU)',
  'req/s ratio (Node/raw)',
  'Hono CPU/req',
  'Hono/Node CPU (target ≤ 1.20)',
  'Hono req/s',
);
row('---', '---', '---', '---', '---', '---', '---', '---');
const requestLabels = {
  GET: 'GET /issues/{id}',
  POST: 'POST /issues',
  'POST v7': `POST /issues, time-ordered keys (the client's; Node CPU ${pairedRatio(hosts['node POST v7'], hosts['node POST']).toFixed(2)}× random keys')`,
  PATCH: 'PATCH /issues/{id}',
};
for (const [name, label] of Object.entries(requestLabels)) {
  const raw = hosts[`raw ${name}`];
  const node = hosts[`node ${name}`];
  const hono = hosts[`hono ${name}`];
  row(
    label,
    us(raw.cpuUs),
    us(node.cpuUs),
    pairedRatio(raw, node).toFixed(3),
    `${(node.rps / raw.rps).toFixed(3)} (${node.rps.toFixed(0)}/${raw.rps.toFixed(0)})`,
    us(hono.cpuUs),
    pairedRatio(hono, node).toFixed(2),
    hono.rps.toFixed(0),
  );
}

// The host comparison created tens of thousands of issues: growth starts from 10k again.
const smallFile = workingCopy(smallSeed);
log(`growth: 10k vs ${large} issues`);
const growth = await withServers(
  [
    ['10k', 'node', smallFile, small],
    ['large', 'node', largeFile, big],
  ],
  async ([smallServer, largeServer]) => {
    const requests = issueRequests(small, amount);
    const both = [smallServer, { ...largeServer, requests: issueRequests(big, amount) }];
    const pairs = await compareServers(both, { GET: requests.GET, POST: requests.POST }, rounds);
    const figures = {};
    for (const name of ['GET', 'POST']) {
      figures[name] = { small: pairs[`10k ${name}`], large: pairs[`large ${name}`] };
    }
    const list = await listLatencies(largeServer, big);
    const batch = await batchVersusSingles(smallServer, small);
    return { figures, list, batch };
  },
);
lines.push('');
row(`growth (Node host)`, 'CPU/req at 10k', `CPU/req at ${large}`, 'ratio');
row('---', '---', '---', '---');
for (const [name, { small: s, large: l }] of Object.entries(growth.figures)) {
  row(name, us(s.cpuUs), us(l.cpuUs), pairedRatio(l, s).toFixed(2));
}
lines.push('');
row(`GET /issues?limit=50 at ${large} issues`, 'p50', 'total');
row('---', '---', '---');
for (const [name, { p50, total }] of Object.entries(growth.list)) row(name, `${p50.toFixed(2)} ms`, total);
lines.push('');
const { batch } = growth;
row(`${batch.size} creates (10k issues, Node host, one connection)`, 'p50', 'ratio');
row('---', '---', '---');
row(`POST /batch of ${batch.size} operations`, `${batch.batchMs.toFixed(1)} ms`, '1');
row(
  `${batch.size} POST /issues, one after another`,
  `${batch.singlesMs.toFixed(1)} ms`,
  `${batch.ratio.toFixed(1)}× the batch`,
);

log(`export: 10k and ${large} issues to a JSON Lines file`);
// Each export runs in a child process of its own, so its peak RSS is the export's alone. V8 grows
// its heap lazily when it may, so the large export runs a second time with the heap capped at
// 40 MB: that it finishes (in about the same RSS as 10k) is what "constant memory" means.
const exports = {
  '10k issues': await measureExport(workingCopy(smallSeed)),
  [`${large.toLocaleString('en')} issues`]: await measureExport(largeFile),
  [`${large.toLocaleString('en')} issues, JS heap capped at 40 MB`]: await measureExport(largeFile, {
    heapMb: 40,
  }),
};
lines.push('');
row('outcome-tracker export (SQLite file, to a file)', 'records', 'time', 'records/s', 'file', 'peak RSS');
row('---', '---', '---', '---', '---', '---');
for (const [name, e] of Object.entries(exports)) {
  row(
    name,
    e.records.toLocaleString('en'),
    `${(e.ms / 1000).toFixed(1)} s`,
    (e.records / (e.ms / 1000)).toFixed(0),
    `${(e.bytes / 1e6).toFixed(0)} MB`,
    `${e.maxRssMb.toFixed(0)} MB`,
  );
}

log('in process: handle() creates, memory adapter inserts');
const child = fork(new URL('./in-process.js', import.meta.url), [], { execArgv: ['--expose-gc'] });
const [inProcess] = await new Promise((resolve, reject) => {
  child.once('message', (m) => resolve([m]));
  child.once('exit', (code) => code && reject(new Error(`in-process bench exited ${code}`)));
});
lines.push('');
row('in process', 'figure');
row('---', '---');
row('handle() creates/s, SQLite file, 1 at a time (median of 3 runs)', inProcess.serial.toFixed(0));
const c = inProcess.concurrent;
row('handle() creates/s, SQLite file, 50 concurrent (median of 3 runs)', c.perSecond.toFixed(0));
row('process CPU per create in that run (all threads)', us(c.cpuUsPerCreate));
row(
  'create latency p50 / p99 / max, 50 concurrent (20,000 creates)',
  `${c.p50.toFixed(1)} / ${c.p99.toFixed(1)} / ${c.max.toFixed(1)} ms`,
);
row('longest event-loop stall during those creates', `${c.loopStallMs.toFixed(1)} ms`);
const m = inProcess.memory;
for (const [n, cost] of Object.entries(m.insertUs)) {
  if (/^\d+$/.test(n)) row(`memory adapter insert at ${Number(n).toLocaleString('en')} issues`, us(cost));
}
if (m.insertUs.stoppedAt) {
  row(
    `memory adapter: stopped at ${m.insertUs.stoppedAt.toLocaleString('en')} (time budget)`,
    us(m.insertUs.lastUs),
  );
}
row(`memory adapter RSS with ${m.loaded.toLocaleString('en')} issues`, `${m.rssMb.toFixed(0)} MB`);

log('webhooks: deliveries to one loopback receiver');
// A run delivers for about two seconds: its rate swings with the machine's other load, so the
// figures are those of the median of three runs (each in a fresh child process and database).
const webhookRuns = [];
for (let run = 0; run < 3; run++) {
  const webhookChild = fork(new URL('./webhooks.js', import.meta.url), []);
  webhookRuns.push(
    await new Promise((resolve, reject) => {
      webhookChild.once('message', resolve);
      webhookChild.once('exit', (code) => code && reject(new Error(`webhook bench exited ${code}`)));
    }),
  );
}
// The run with the median rate, reported whole: its figures belong together.
const webhooks = medianRun(webhookRuns, (run) => run.deliveriesPerSecond);
lines.push('');
row(
  `webhooks (${webhooks.events.toLocaleString('en')} events, SQLite file, one receiver; median run of ${webhookRuns.length})`,
  'figure',
);
row('---', '---');
row('signed deliveries/s', webhooks.deliveriesPerSecond.toFixed(0));
row('dispatcher CPU per delivery', us(webhooks.cpuUsPerDelivery));
row('storage transactions per delivery', webhooks.transactionsPerDelivery.toFixed(3));
row('TCP connections opened', webhooks.connections);
row('transactions/s of an idle started dispatcher', webhooks.idleTransactionsPerSecond.toFixed(2));

log('test kit: createTestTracker() and seed() of 10,000 issues, in memory');
// Each run in a fresh process (a fresh heap: seeding's garbage is a third of its time), the
// median run by seed time reported whole.
const kitRuns = [];
for (let run = 0; run < 3; run++) {
  const kitChild = fork(new URL('./testing-kit.js', import.meta.url), []);
  kitRuns.push(
    await new Promise((resolve, reject) => {
      kitChild.once('message', resolve);
      kitChild.once('exit', (code) => code && reject(new Error(`test kit bench exited ${code}`)));
    }),
  );
}
const kit = medianRun(kitRuns, (run) => run.seedMs);
lines.push('');
row(`test kit, memory (median run of ${kitRuns.length})`, 'wall', 'CPU (all threads)');
row('---', '---', '---');
row('first createTestTracker() of a process (loads the modules)', `${kit.firstCreateMs.toFixed(1)} ms`, '');
row(
  `createTestTracker() + workspace, admin and token (median of ${kit.creates})`,
  `${kit.createMs.toFixed(2)} ms`,
  `${kit.createCpuMs.toFixed(2)} ms`,
);
row(
  'seed() of 10,000 issues (4 projects, 20 outcomes)',
  `${kit.seedMs.toFixed(0)} ms`,
  `${kit.seedCpuMs.toFixed(0)} ms`,
);

console.log(
  `\nrounds=${rounds}, ${amount} GETs and ${amount / 2} writes a round; CPU/req: medians of the rounds; ` +
    'ratios: medians of the ratios within each round (servers measured back to back)\n',
);
console.log(tableLines(efficiency).join('\n'));
console.log('');
console.log(aligned(lines).join('\n'));

/** The tables with each column padded to its widest cell, so they read in a terminal too. */
function aligned(tableLines) {
  const out = [];
  let table = [];
  const flush = () => {
    const rows = table.map((line) => line.slice(2, -2).split(' | '));
    const widths = [];
    for (const cells of rows) {
      for (const [i, cell] of cells.entries()) widths[i] = Math.max(widths[i] ?? 0, cell.length);
    }
    for (const cells of rows) {
      const padded = cells.map((cell, i) =>
        /^-+$/.test(cell) ? '-'.repeat(widths[i]) : cell.padEnd(widths[i]),
      );
      out.push(`| ${padded.join(' | ')} |`);
    }
    table = [];
  };
  for (const line of tableLines) {
    if (line.startsWith('| ')) table.push(line);
    else {
      flush();
      out.push(line);
    }
  }
  flush();
  return out;
}
