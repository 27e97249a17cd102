// Server CPU per request and requests/s for GET, POST and PATCH of an issue, through the Node and
// Hono hosts, against a bare node:http server measured in the same rounds (alternating order).
import { randomUUID } from 'node:crypto';
import { timeOrderedKey } from '@outcome-tracker/client';
import { measure, median, startServer, stopServer } from './support.js';

/** The three requests, for a seeded database described by `info`. */
export function issueRequests(info, amount) {
  const auth = { authorization: `Bearer ${info.token}`, 'content-type': 'application/json' };
  const create = JSON.stringify({ projectId: info.projectId, title: 'Benchmark issue', severity: 'high' });
  const withKey = (req) => ({ ...req, headers: { ...req.headers, 'idempotency-key': randomUUID() } });
  return {
    GET: { path: `/api/v1/issues/${info.issueId}`, headers: auth, amount },
    POST: {
      path: '/api/v1/issues',
      method: 'POST',
      body: create,
      headers: auth,
      requests: [{ setupRequest: withKey }],
      amount: Math.round(amount / 2),
    },
    PATCH: {
      path: `/api/v1/issues/${info.issueId}`,
      method: 'PATCH',
      body: JSON.stringify({ title: 'Patched by the benchmark' }),
      headers: { ...auth, 'if-match': '*' },
      amount: Math.round(amount / 2),
    },
  };
}

/**
 * The requests with `POST v7` after `POST`: `POST /issues` as the first-party client sends it,
 * with a time-ordered (version 7) key. Measured right after the random-key creates of the same
 * round, on the same server, so that their paired ratio compares the two keys alone.
 */
export function withTimeOrderedCreate({ GET, POST, PATCH }) {
  const withKey = (req) => ({ ...req, headers: { ...req.headers, 'idempotency-key': timeOrderedKey() } });
  return { GET, POST, 'POST v7': { ...POST, requests: [{ setupRequest: withKey }] }, PATCH };
}

/**
 * Measures each request on each server for `rounds` rounds, alternating the servers' order, and
 * returns the medians by "<server> <request>": { cpuUs, rps, rounds } (`rounds`: each round's CPU
 * per request, in order, for pairedRatio). A server may carry its own `requests` (another
 * database's ids); the others get `requests`.
 */
export async function compareServers(servers, requests, rounds) {
  const samples = {};
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 ? [...servers].reverse() : servers;
    for (const name of Object.keys(requests)) {
      for (const server of order) {
        const sample = await measure(server, (server.requests ?? requests)[name]);
        const key = `${server.name} ${name}`;
        samples[key] = [...(samples[key] ?? []), sample];
      }
    }
  }
  const result = {};
  for (const [key, list] of Object.entries(samples)) {
    result[key] = {
      cpuUs: median(list.map((s) => s.cpuUs)),
      rps: median(list.map((s) => s.rps)),
      rounds: list.map((s) => s.cpuUs),
    };
  }
  return result;
}

/**
 * Starts the variants ([name, variant, database file, its seed info]), warms each up, runs
 * `fn(servers)`, and stops them.
 */
export async function withServers(variants, fn) {
  const servers = [];
  for (const [name, variant, file, info] of variants) {
    servers.push({ name, info, ...(await startServer(variant, file)) });
  }
  try {
    for (const server of servers) {
      // Enough requests that the first round measures compiled code, not the compiler.
      for (const request of Object.values(issueRequests(server.info, 2000))) await measure(server, request);
    }
    return await fn(servers);
  } finally {
    for (const server of servers) await stopServer(server);
  }
}

/**
 * The median over rounds of `a`'s CPU per request divided by `b`'s in the same round. Within a
 * round the two run back to back, so a machine that slows down for a while (a shared one does, by
 * a third at times) slows both: the ratio of each round is steadier than the ratio of the medians.
 */
export const pairedRatio = (a, b) => median(a.rounds.map((cpuUs, i) => cpuUs / b.rounds[i]));
