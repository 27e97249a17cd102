import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { serverKinds } from '../../src/cli/server/listen.js';
import { assertBuilt, type Served, startServeJson, tempDir } from '../cli/process.js';

/** More connections than serve's 1,024 at most, each under the 256 one address may hold. */
const slow = 1_100;
/** Five loopback addresses (Linux routes all of 127/8 to lo); the served client is 127.0.0.1. */
const attackers = ['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5', '127.0.0.6'];

interface SlowConnection {
  socket: Socket;
  /** Sent its first bytes, or was closed first. */
  settled: Promise<void>;
}

/** A connection from `address` that writes `start`, then (see trickle) a byte now and then. */
function openSlow(port: number, address: string, start: string): SlowConnection {
  const socket = connect({ host: '127.0.0.1', port, localAddress: address });
  socket.on('error', () => {});
  const settled = new Promise<void>((resolve) => {
    socket.once('close', () => resolve());
    socket.once('connect', () => socket.write(start, () => resolve()));
  });
  return { socket, settled };
}

/** What each slow connection sends first: headers cut short, or a whole head and a body begun. */
const starts = {
  headers: () => 'GET /api/v1/projects HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ',
  bodies: (token: string) =>
    `POST /api/v1/projects HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nIdempotency-Key: ${crypto.randomUUID()}\r\nContent-Length: 100000\r\n\r\n{`,
};

describe.each(serverKinds)('1,100 slow connections from 5 addresses into serve --server %s', (kind) => {
  let served: Served | undefined;
  const open: SlowConnection[] = [];
  afterEach(async () => {
    for (const connection of open.splice(0)) connection.socket.destroy();
    await served?.stop();
  });

  it.each(['headers', 'bodies'] as const)(
    'leave another client served while they trickle their %s',
    async (what) => {
      assertBuilt();
      // A rate limit that admits every body: they are read, slowly, rather than refused at once.
      const limit = what === 'bodies' ? ['--rate-limit', '1000000'] : [];
      const started = await startServeJson([
        '--db',
        join(tempDir(), 'tracker.db'),
        '--server',
        kind,
        ...limit,
      ]);
      served = started;
      const { url, init } = started.startup;
      const port = Number(new URL(url).port);
      const token = init?.token;
      if (!token) throw new Error('a fresh database prints its first token');

      const start = what === 'headers' ? starts.headers() : starts.bodies(token);
      for (let i = 0; i < slow; i++)
        open.push(openSlow(port, attackers[i % attackers.length] as string, start));
      await Promise.all(open.map((connection) => connection.settled));
      const trickle = setInterval(() => {
        for (const connection of open) if (!connection.socket.destroyed) connection.socket.write('x');
      }, 500);
      try {
        // Every connection the server has is taken by now, or closed on arrival.
        const health = await fetch(`${url}/healthz`);
        expect(health.status).toBe(200);
        const list = await fetch(`${url}/api/v1/projects`, { headers: { authorization: `Bearer ${token}` } });
        expect(list.status).toBe(200);
      } finally {
        clearInterval(trickle);
      }
    },
    240_000,
  );
});
