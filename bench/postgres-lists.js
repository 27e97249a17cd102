// Latency of the issue lists of bench/list.js (a page of 50 with its exact total) on PostgreSQL
// at BENCH_ISSUES (1,000,000) issues in one workspace, seeded as bench/postgres-seed.js says.
// The lists go
// through `nodeHandler` over HTTP in this process, one request at a time: p50 of BENCH_SAMPLES
// (20) after 5 warm-ups. Needs BENCH_DATABASE_URL or TEST_DATABASE_URL; a schema of its own,
// dropped after.
import http from 'node:http';
import { nodeHandler } from '../dist/http/node.js';
import { listLatencies } from './list.js';
import { benchSchema } from './postgres-schema.js';
import { seedIssues } from './postgres-seed.js';

const url = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
if (!url) {
  console.error('bench/postgres-lists.js: needs BENCH_DATABASE_URL or TEST_DATABASE_URL');
  process.exit(1);
}
const count = Number(process.env.BENCH_ISSUES ?? 1_000_000);
const samples = Number(process.env.BENCH_SAMPLES ?? 20);
const bench = await benchSchema(url, 'bench_lists');
const { tracker, close } = bench;

const info = await seedIssues(bench, count);
const server = http.createServer(nodeHandler(tracker));
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
try {
  const results = await listLatencies({ url: `http://127.0.0.1:${server.address().port}` }, info, samples);
  console.log(`\nPostgreSQL, ${count} issues, a page of 50 with its exact total, p50 of ${samples}:\n`);
  console.log('| list | p50 ms | total |\n| --- | --- | --- |');
  for (const [name, { p50, total }] of Object.entries(results))
    console.log(`| ${name} | ${p50.toFixed(1)} | ${total.toLocaleString('en')} |`);
} finally {
  server.close();
  await close();
}
