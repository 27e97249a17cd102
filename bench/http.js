// HTTP benchmark: POST /api/v1/issues and GET /api/v1/issues/{id} through the Node host on a
// SQLite file, against a raw node:http server measured in the same run. Figures are printed as
// ratios to that baseline because absolute numbers on a shared 2-core machine mean little.
import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import autocannon from 'autocannon';

const duration = Number(process.env.BENCH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);

async function startServer(variant) {
  const child = fork(new URL('./server.js', import.meta.url), [variant], {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  let buffered = '';
  for await (const chunk of child.stdout) {
    buffered += chunk;
    const match = /ready (\d+) (.*)\n/.exec(buffered);
    if (match) return { child, url: `http://127.0.0.1:${match[1]}`, info: JSON.parse(match[2]) };
  }
  throw new Error(`server ${variant} did not start`);
}

async function load(options) {
  const result = await autocannon({ duration, connections, ...options });
  const errors = result.non2xx + result.errors;
  if (errors > 0) throw new Error(`${options.title}: ${errors} failed requests (non-2xx or errors)`);
  return { rps: result.requests.average, p99: result.latency.p99, title: options.title };
}

const raw = await startServer('raw');
const tracker = await startServer('tracker');
const auth = { authorization: `Bearer ${tracker.info.token}`, 'content-type': 'application/json' };
const body = JSON.stringify({
  projectId: tracker.info.projectId,
  title: 'Benchmark issue',
  severity: 'high',
});

// One issue to read back.
const created = await fetch(`${tracker.url}/api/v1/issues`, {
  method: 'POST',
  headers: { ...auth, 'idempotency-key': randomUUID() },
  body,
});
const issueId = (await created.json()).id;

const rows = [];
const post = (url, title, headers) =>
  load({
    title,
    url: `${url}/api/v1/issues`,
    method: 'POST',
    body,
    headers,
    requests: [
      { setupRequest: (req) => ({ ...req, headers: { ...req.headers, 'idempotency-key': randomUUID() } }) },
    ],
  });

const baselinePost = await post(raw.url, 'raw node:http POST', { 'content-type': 'application/json' });
const trackerPost = await post(tracker.url, 'tracker POST /api/v1/issues', auth);
const baselineGet = await load({ title: 'raw node:http GET', url: `${raw.url}/api/v1/issues/x` });
const trackerGet = await load({
  title: 'tracker GET /api/v1/issues/{id}',
  url: `${tracker.url}/api/v1/issues/${issueId}`,
  headers: auth,
});
rows.push([baselinePost, trackerPost], [baselineGet, trackerGet]);

console.log(`\n${duration}s per run, ${connections} connections, SQLite file storage, Node host\n`);
for (const [base, measured] of rows) {
  console.log(
    `${measured.title.padEnd(34)} ${measured.rps.toFixed(0).padStart(7)} req/s  p99 ${String(measured.p99).padStart(4)} ms`,
  );
  console.log(
    `${base.title.padEnd(34)} ${base.rps.toFixed(0).padStart(7)} req/s  p99 ${String(base.p99).padStart(4)} ms`,
  );
  console.log(`  ratio tracker/raw: ${(measured.rps / base.rps).toFixed(3)}\n`);
}

for (const server of [raw, tracker]) {
  server.child.kill('SIGTERM');
  await once(server.child, 'exit');
}
