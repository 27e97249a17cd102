// Helpers shared by the benchmarks: server processes, their CPU time, loads of a fixed size.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
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

const ticksPerSecond = 100; // USER_HZ on Linux

/** User + system CPU seconds the process has used so far (from /proc/<pid>/stat). */
export function cpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 14 and 15 of stat (utime, stime) are 12 and 13 after the command name.
  return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
}

/** Resident set size of the process in MB. */
export function rssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/**
 * Sends `amount` requests (autocannon, `connections` at once) and returns the server's CPU µs per
 * request and the requests per second; any non-2xx answer fails the benchmark.
 */
export async function measure(server, { amount, connections = 50, ...options }) {
  const before = cpuSeconds(server.pid);
  const result = await autocannon({
    ...options,
    url: server.url + options.path,
    amount,
    connections,
    timeout: 60,
  });
  const cpu = cpuSeconds(server.pid) - before;
  const failed = result.non2xx + result.errors + result.timeouts;
  if (failed > 0) {
    const statuses = JSON.stringify(result.statusCodeStats);
    throw new Error(`${options.path}: ${failed} of ${amount} requests failed (statuses ${statuses})`);
  }
  const requests = result.requests.total;
  return { cpuUs: (cpu * 1e6) / requests, rps: requests / (result.duration || 1) };
}

export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
