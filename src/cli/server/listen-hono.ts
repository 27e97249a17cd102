import type { Server, ServerOptions } from 'node:http';
import { serve } from '@hono/node-server';
import type { Tracker } from '../../core/tracker.js';
import { honoApp } from '../../http/hono.js';

/** Binds through `@hono/node-server`; loaded only for `--server hono`, as hono is an optional peer. */
export function listenHono(
  host: string,
  port: number,
  starting: () => Response,
  fail: (error: NodeJS.ErrnoException) => void,
  serverOptions: ServerOptions,
): Promise<{ server: Server; serve(tracker: Tracker): void }> {
  return new Promise((resolve) => {
    let app: ReturnType<typeof honoApp> | null = null;
    // serve() starts listening at once; listen errors are emitted on a later tick, after this handler is on.
    const server = serve(
      {
        fetch: (request, env) => (app ? app.fetch(request, env) : starting()),
        port,
        hostname: host,
        serverOptions,
      },
      () =>
        resolve({
          server,
          serve: (tracker) => {
            app = honoApp(tracker);
          },
        }),
    ) as Server;
    server.once('error', fail);
  });
}
