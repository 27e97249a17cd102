// A server for the HTTP benchmarks, run in its own process so that its CPU time can be read from
// /proc and the load generator does not share its event loop. Variants:
//   raw <file>   a bare node:http server: tiny JSON for reads, parses and echoes a JSON body for writes
//   node <file>  the tracker's Node host over the SQLite file
//   hono <file>  the tracker's Hono app served by @hono/node-server over the same file
//   shared <file> the Node host with the storage-time share on at its default, as `serve` ships it
// Prints "ready <port>" when listening.
import http from 'node:http';
import { serve } from '@hono/node-server';
import { sqliteStorage } from '../dist/adapters/sqlite/index.js';
import { createTracker } from '../dist/core/index.js';
import { honoApp } from '../dist/http/hono.js';
import { nodeHandler } from '../dist/http/node.js';

const [variant, file] = process.argv.slice(2);
const ready = (server) => console.log(`ready ${server.address().port}`);
// The benchmark asks for this process's CPU time over IPC (µs, all threads); 'exit' ends the
// process normally, so that a --cpu-prof profile is written.
process.on('message', (message) => {
  if (message === 'cpu') process.send(process.cpuUsage());
  if (message === 'exit') process.exit(0);
});

if (variant === 'raw') {
  const payload = JSON.stringify({ id: 'iss_0', title: 'Baseline', status: 'open', version: 1 });
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const write = req.method !== 'GET';
      const body = write
        ? JSON.stringify({ ...JSON.parse(Buffer.concat(chunks).toString()), id: 'x' })
        : payload;
      res.writeHead(req.method === 'POST' ? 201 : 200, { 'Content-Type': 'application/json' });
      res.end(body);
    });
  });
  server.listen(0, '127.0.0.1', () => ready(server));
} else {
  // One client drives the server as hard as it can: no request limit, and no share of storage
  // time but in the `shared` variant, which measures what the share's bookkeeping costs.
  const tracker = createTracker({
    storage: sqliteStorage({ filename: file }),
    rateLimit: false,
    storageTimeBudget: variant === 'shared' ? {} : false,
  });
  if (variant === 'hono') {
    const server = serve({ fetch: honoApp(tracker).fetch, port: 0, hostname: '127.0.0.1' }, () =>
      ready(server),
    );
  } else {
    const server = http.createServer(nodeHandler(tracker));
    server.listen(0, '127.0.0.1', () => ready(server));
  }
}
