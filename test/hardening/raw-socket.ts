import { connect } from 'node:net';

export interface RawExchange {
  /** Everything the server sent before it closed the connection. */
  received: string;
  /** Whether the server closed the connection (rather than the test giving up). */
  closed: boolean;
}

/**
 * Writes `chunks` to a fresh TCP connection to `url`'s host and port, in order, then collects what
 * the server sends until it closes the connection or `giveUpMs` pass (which the caller reports as
 * a hang). Write errors after the server closed are expected and ignored.
 */
export function rawExchange(
  url: string,
  chunks: (string | Uint8Array)[],
  giveUpMs = 10_000,
): Promise<RawExchange> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) });
    let received = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ received, closed: false });
    }, giveUpMs);
    socket.on('data', (data) => {
      received += data.toString('latin1');
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ received, closed: true });
    });
    socket.on('connect', () => {
      for (const chunk of chunks) if (!socket.destroyed) socket.write(chunk);
    });
  });
}

/** The status codes of the responses in a raw exchange, in order. */
export const statusesOf = (received: string): number[] =>
  [...received.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
