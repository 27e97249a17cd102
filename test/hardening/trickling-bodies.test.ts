import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { serverKinds } from '../../src/cli/server/listen.js';
import { assertBuilt, type Served, startServeJson, tempDir } from '../cli/process.js';

/** As many connections as the probe opened: more than serve's 1,024 at most. */
const tricklers = 1_100;
/** The tricklers come from another loopback address than the clients that must still be served. */
const attackerAddress = '127.0.0.2';

/** One trickling connection: what it was answered, and whether the server closed it. */
interface Trickler {
  socket: Socket;
  received: string;
  closed: Promise<void>;
}

/**
 * Opens a connection from the attacker's address that sends the headers of a tokenless
 * `POST /api/v1/issues` announcing a 100 kB body, then a byte of it now and then (see `trickle`).
 */
function openTrickler(port: number): { trickler: Trickler; settled: Promise<void> } {
  const socket = connect({ host: '127.0.0.1', port, localAddress: attackerAddress });
  const trickler: Trickler = { socket, received: '', closed: Promise.resolve() };
  let settle = () => {};
  const settled = new Promise<void>((resolve) => {
    settle = resolve;
  });
  trickler.closed = new Promise<void>((resolve) => {
    socket.once('close', () => {
      settle();
      resolve();
    });
  });
  socket.on('error', () => {});
  socket.on('data', (chunk: Buffer) => {
    trickler.received += chunk.toString('latin1');
  });
  socket.once('connect', () => {
    socket.write(
      'POST /api/v1/issues HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{',
      () => settle(),
    );
  });
  return { trickler, settled };
}

describe.each(serverKinds)('1,100 tokenless connections trickling bodies into serve --server %s', (kind) => {
  let served: Served | undefined;
  const open: Trickler[] = [];
  afterEach(async () => {
    for (const t of open.splice(0)) t.socket.destroy();
    await served?.stop();
  });

  it('leaves /healthz and an authenticated client served, and refuses every trickler by its headers, its body unread', async () => {
    assertBuilt();
    const started = await startServeJson(['--db', join(tempDir(), 'tracker.db'), '--server', kind]);
    served = started;
    const { url, init } = started.startup;
    const port = Number(new URL(url).port);
    const token = init?.token;
    if (!token) throw new Error('a fresh database prints its first token');

    const opened = Array.from({ length: tricklers }, () => openTrickler(port));
    open.push(...opened.map((o) => o.trickler));
    // Every connection has sent its headers, or was closed on arrival.
    await Promise.all(opened.map((o) => o.settled));
    // A byte of each body now and then, for as long as the connections are open.
    const trickle = setInterval(() => {
      for (const t of open) if (!t.socket.destroyed) t.socket.write('x');
    }, 500);
    try {
      const health = await fetch(`${url}/healthz`);
      expect(health.status).toBe(200);
      const authorization = `Bearer ${token}`;
      const list = await fetch(`${url}/api/v1/projects`, { headers: { authorization } });
      expect(list.status).toBe(200);
      const created = await fetch(`${url}/api/v1/projects`, {
        method: 'POST',
        headers: {
          authorization,
          'content-type': 'application/json',
          'idempotency-key': crypto.randomUUID(),
        },
        body: JSON.stringify({ name: 'Still served' }),
      });
      expect(created.status).toBe(201);

      // Every trickler ends: closed on arrival (too many from its address), or answered by its
      // headers, 401 (no token) or 429 (its address's rate limit), and closed with its body unread.
      await Promise.all(open.map((t) => t.closed));
    } finally {
      clearInterval(trickle);
    }
    const statuses = new Map<string, number>();
    for (const t of open) {
      const status = /^HTTP\/1\.1 (\d{3})/.exec(t.received)?.[1] ?? 'closed on arrival';
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
    const answered = [...statuses].filter(([status]) => status !== 'closed on arrival');
    expect(answered.every(([status]) => status === '401' || status === '429')).toBe(true);
    expect(answered.length).toBeGreaterThan(0);
  }, 240_000);
});
