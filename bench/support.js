// Helpers shared by the benchmarks: server processes, their CPU time, loads of a fixed size.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import autocannon from 'autocannon';

/** Starts bench/server.js with `args`; resolves once it listens. */
export async function startServer(...args) {
  const child = fork(new URL('./server.js', import.meta.url), args, {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  let buffered = '';
  for await (const chunk of child.stdout) {
    buffered += chunk;
    const match = /ready (\d+)\n/.exec(buffered);
    if (match) return { child, pid: child.pid, url: `http://127.0.0.1:${match[1]}` };
  }
  throw new Error(`server ${args.join(' ')} did not start`);
}

export async function stopServer(server) {
  server.child.kill('SIGTERM');
  await once(server.child, 'exit');
}

/**
 * User + system CPU µs the server process has used so far, as it reads them itself
 * (process.cpuUsage, all its threads): /proc's clock ticks are 10 ms, too coarse for a round of a
 * few thousand requests of tens of µs each.
 */
export async function cpuMicros(server) {
  const reply = once(server.child, 'message');
  server.child.send('cpu');
  const [{ user, system }] = await reply;
  return user + system;
}

/**
 * Sends `amount` requests (autocannon, `connections` at once) and returns the server's CPU µs per
 * request and the requests per second; any non-2xx answer fails the benchmark.
 */
export async function measure(server, { amount, connections = 50, ...options }) {
  const before = await cpuMicros(server);
  const started = process.hrtime.bigint();
  const result = await autocannon({
    ...options,
    url: server.url + options.path,
    amount,
    connections,
    timeout: 60,
    // autocannon notices that the last answer came only at its next sample: every 25 ms, not
    // every second, so that requests/s is not rounded down to whole seconds.
    sampleInt: 25,
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const cpu = (await cpuMicros(server)) - before;
  const failed = result.non2xx + result.errors + result.timeouts;
  if (failed > 0) {
    const statuses = JSON.stringify(result.statusCodeStats);
    throw new Error(`${options.path}: ${failed} of ${amount} requests failed (statuses ${statuses})`);
  }
  const requests = result.requests.total;
  return { cpuUs: cpu / requests, rps: requests / seconds };
}

/** Of several runs, the one whose `perSecond` is the median (its other figures go with it). */
export const medianRun = (runs, rate = (run) => run.perSecond) =>
  [...runs].sort((a, b) => rate(a) - rate(b))[Math.floor(runs.length / 2)];

export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
