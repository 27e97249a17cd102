import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryStorage } from '../../src/adapters/memory/index.js';
import { defaultServerLimits, type ServerLimits } from '../../src/cli/server/limits.js';
import { type Listening, listen, serverKinds } from '../../src/cli/server/listen.js';
import { createTracker, type Tracker } from '../../src/core/index.js';

/**
 * A client that asks for a large answer and never reads it held its connection, and the answer's
 * memory, for as long as it kept the connection open; with `--max-connections` of them, nobody
 * else could connect. `serve` closes a connection whose unsent bytes have not moved for
 * `--send-timeout`.
 */
describe.each(serverKinds)('answers a client does not read, through the %s host of serve', (kind) => {
  let listening: Listening;
  let tracker: Tracker;
  let port: number;
  const sockets: Socket[] = [];
  const readers: ChildProcess[] = [];
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    for (const reader of readers.splice(0)) reader.kill();
    listening.server.closeAllConnections();
    await new Promise((done) => listening.server.close(done));
    await tracker.close();
  });

  async function start(limits: Partial<ServerLimits>) {
    listening = await listen(kind, '127.0.0.1', 0, { ...defaultServerLimits, ...limits });
    tracker = createTracker({ storage: memoryStorage() });
    listening.serve(tracker);
    const address = listening.server.address();
    if (!address || typeof address === 'string') throw new Error('not listening');
    port = address.port;
  }

  /**
   * Asks for the reference page (400 kB) with a receive buffer of 4 kB, takes the
   * first bytes, then reads no more and holds the connection for a minute. A Python client: Node
   * cannot shrink a socket's receive buffer, and on loopback the kernel takes up to 32 MB of an
   * answer into a default one (the server then has nothing left to send).
   */
  async function stalledReader(): Promise<ChildProcess> {
    const reader = spawn('python3', [
      '-c',
      [
        'import socket, sys, time',
        's = socket.socket()',
        's.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)',
        `s.connect(('127.0.0.1', ${port}))`,
        "s.sendall(b'GET /docs HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n')",
        's.recv(100)',
        "print('stalled', flush=True)",
        'time.sleep(60)',
      ].join('\n'),
    ]);
    readers.push(reader);
    await new Promise<void>((resolve, reject) => {
      reader.stdout?.once('data', () => resolve());
      reader.once('exit', (code) => reject(new Error(`the reader exited (${code})`)));
    });
    return reader;
  }

  /** /healthz's status, or null when the connection was refused or not answered within 1.5 s. */
  const healthz = () =>
    fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(1_500) }).then(
      (response) => response.status,
      () => null,
    );

  async function until(condition: () => boolean | Promise<boolean>, withinMs: number): Promise<boolean> {
    for (let waited = 0; waited <= withinMs; waited += 50) {
      if (await condition()) return true;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return false;
  }

  const python = spawnSync('python3', ['--version']).status === 0;

  it.skipIf(!python)(
    'closes connections whose answer waits unread for the send timeout, which frees them for others (needs python3)',
    async () => {
      await start({ sendTimeoutMs: 1_000, maxConnections: 3 });
      await Promise.all([stalledReader(), stalledReader(), stalledReader()]);
      // Every connection is taken: another is not served.
      expect(await healthz()).toBeNull();
      expect(await until(async () => (await healthz()) === 200, 10_000)).toBe(true);
    },
  );

  it.skipIf(!python)('keeps an unread answer with a send timeout of 0 (needs python3)', async () => {
    await start({ sendTimeoutMs: 0, maxConnections: 1 });
    await stalledReader();
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(await healthz()).toBeNull();
  });

  it('leaves a reader that takes its answer slowly', async () => {
    await start({ sendTimeoutMs: 1_000 });
    // Reads a little every 300 ms: the answer keeps moving.
    const slow = connect(port, '127.0.0.1');
    sockets.push(slow);
    let received = 0;
    slow.on('data', (chunk: Buffer) => {
      received += chunk.length;
      slow.pause();
      setTimeout(() => slow.resume(), 300);
    });
    slow.write('GET /docs HTTP/1.1\r\nHost: x\r\n\r\n');
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(slow.destroyed).toBe(false);
    expect(received).toBeGreaterThan(0);
  });
});
