import { createServer, type Server, type ServerOptions } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import type { Tracker } from '../../core/tracker.js';
import { honoApp, honoRequestError } from '../../http/hono.js';

/**
 * Binds through `@hono/node-server`; loaded only for `--server hono`, as hono is an optional peer.
 * Its request listener is used (rather than its `serve`, which takes no `errorHandler`) so that a
 * request it cannot turn into a `Request` is answered as problem+json (honoRequestError).
 */
export function listenHono(
  host: string,
  port: number,
  starting: () => Response,
  fail: (error: NodeJS.ErrnoException) => void,
  serverOptions: ServerOptions,
): Promise<{ server: Server; serve(tracker: Tracker): void }> {
  return new Promise((resolve) => {
    let app: ReturnType<typeof honoApp> | null = null;
    const listener = getRequestListener((request, env) => (app ? app.fetch(request, env) : starting()), {
      hostname: host,
      errorHandler: honoRequestError,
    });
    const server = createServer(serverOptions, listener);
    server.once('error', fail);
    server.listen(port, host, () =>
      resolve({
        server,
        serve: (tracker) => {
          app = honoApp(tracker);
        },
      }),
    );
  });
}
