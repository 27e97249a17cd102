import type { AddressInfo } from 'node:net';
import { connect, createServer, type Server, type Socket } from 'node:net';

/** A TCP proxy on 127.0.0.1 in front of a server, that can lose answers and cut connections. */
export interface TcpProxy {
  url: string;
  /** Connections accepted so far. */
  connections(): number;
  /**
   * The next `n` answers are lost: the request reaches the server, and the connection is dropped
   * as soon as the answer starts to come back. The server did the work; the client never hears.
   */
  dropNextAnswers(n: number): void;
  /** Cuts every open connection at once (a network failure in the middle of a stream). */
  cutAll(): void;
  close(): Promise<void>;
}

export async function tcpProxy(targetPort: number): Promise<TcpProxy> {
  let toDrop = 0;
  let accepted = 0;
  const open = new Set<Socket>();
  const server: Server = createServer((client) => {
    accepted++;
    const upstream = connect(targetPort, '127.0.0.1');
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      socket.on('error', () => {});
    }
    client.pipe(upstream);
    upstream.on('data', (chunk: Buffer) => {
      if (toDrop > 0) {
        toDrop--;
        client.destroy();
        upstream.destroy();
      } else client.write(chunk);
    });
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    connections: () => accepted,
    dropNextAnswers: (n) => {
      toDrop = n;
    },
    cutAll: () => {
      for (const socket of open) socket.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
