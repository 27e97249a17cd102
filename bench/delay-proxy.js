// A TCP proxy that adds a fixed delay to every round trip: what the server sends back reaches the
// client `delayMs` later, in order (what the client sends is forwarded at once). Used by
// bench/postgres.js to put PostgreSQL "one network hop away". Usage:
//   node bench/delay-proxy.js <target host> <target port> <delay ms>
// Prints the port it listens on (127.0.0.1), as one line of JSON: {"port": 12345}.
import { createConnection, createServer } from 'node:net';

const [host = '127.0.0.1', port = '5432', delay = '1.5'] = process.argv.slice(2);
const delayMs = Number(delay);

const server = createServer((client) => {
  client.setNoDelay(true);
  const upstream = createConnection({ host, port: Number(port) });
  upstream.setNoDelay(true);
  // Chunks leave in arrival order, each no earlier than delayMs after it arrived.
  const queue = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    const now = performance.now();
    while (queue.length > 0 && queue[0].due <= now) client.write(queue.shift().chunk);
    if (queue.length === 0) return;
    scheduled = true;
    setTimeout(flush, Math.max(0, queue[0].due - now));
  };
  upstream.on('data', (chunk) => {
    queue.push({ chunk, due: performance.now() + delayMs });
    if (scheduled) return;
    scheduled = true;
    setTimeout(flush, delayMs);
  });
  client.on('data', (chunk) => upstream.write(chunk));
  const end = () => {
    client.destroy();
    upstream.destroy();
  };
  client.on('error', end);
  upstream.on('error', end);
  client.on('close', end);
  upstream.on('close', end);
});
server.listen(0, '127.0.0.1', () => {
  console.log(JSON.stringify({ port: server.address().port }));
});
