import type { Server } from 'node:http';

/** How often idle keep-alive connections are closed while requests in flight finish. */
const idleSweepMs = 50;

/**
 * Stops accepting connections and resolves once every request in flight has been answered.
 * Keep-alive connections are closed as soon as they fall idle. After `graceMs` the rest
 * (e.g. server-sent event streams, which never end by themselves) are cut.
 */
export function closeGracefully(server: Server, graceMs: number): Promise<void> {
  return new Promise((resolve) => {
    const sweep = setInterval(() => server.closeIdleConnections(), idleSweepMs);
    const deadline = setTimeout(() => server.closeAllConnections(), graceMs);
    server.close(() => {
      clearInterval(sweep);
      clearTimeout(deadline);
      resolve();
    });
    server.closeIdleConnections();
  });
}
