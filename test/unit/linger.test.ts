import { connect, createServer, type Server, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { lingerOnClose } from '../../src/http/linger.js';

/**
 * A server that answers at once and closes with `destroySoon` (as Node's HTTP server closes a
 * `Connection: close` answer), with or without lingering; a client that keeps sending for a while
 * after the answer. What the client sees: the answer, and whether its writes failed.
 */
async function exchange(linger: boolean) {
  const server: Server = createServer((socket: Socket) => {
    socket.once('data', () => {
      if (linger) lingerOnClose(socket);
      socket.write('ANSWER');
      socket.destroySoon();
    });
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as { port: number };
  try {
    return await new Promise<{ received: string; failed: boolean }>((resolve) => {
      // Half-open: the client goes on sending after the server's end, as an uploading client does.
      const client = connect({ host: '127.0.0.1', port, allowHalfOpen: true });
      let received = '';
      let failed = false;
      client.on('data', (data) => {
        received += data.toString();
      });
      client.on('error', () => {
        failed = true;
      });
      client.on('close', () => resolve({ received, failed }));
      client.on('connect', async () => {
        client.write('first');
        // The rest of an upload, sent after the server has answered and closed its side.
        await new Promise((later) => setTimeout(later, 100));
        for (let i = 0; i < 8 && !client.destroyed; i++) {
          client.write(Buffer.alloc(64 * 1024, 0x20));
          await new Promise((later) => setTimeout(later, 20));
        }
        client.end();
      });
    });
  } finally {
    server.close();
  }
}

describe('a lingering close', () => {
  it('reads and drops what the client still sends, so its writes succeed and it reads the answer, then the end', async () => {
    expect(await exchange(true)).toEqual({ received: 'ANSWER', failed: false });
  });

  it('is needed: closing at once resets a client that is still sending', async () => {
    expect((await exchange(false)).failed).toBe(true);
  });
});
