import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Tracker } from '../../core/tracker.js';
import { nodeHandler } from '../../http/node.js';
import { CliError } from '../errors.js';
import {
  applyServerLimits,
  connectionsCheckingIntervalMs,
  type ServerLimits,
  serverCreationOptions,
} from './limits.js';

export const serverKinds = ['node', 'hono'] as const;
export type ServerKind = (typeof serverKinds)[number];

/** A server bound to its port that answers 503 until `serve` hands it the tracker. */
export interface Listening {
  server: Server;
  serve(tracker: Tracker): void;
}

/** The answer for the moment between binding the port and opening the database. */
const starting = { status: 503, body: 'Starting, try again in a moment.\n' } as const;
const startingHeaders = { 'Content-Type': 'text/plain; charset=utf-8', 'Retry-After': '1' };

/**
 * Binds the port through the chosen host, before the database is opened: a port in use then
 * fails the command before a fresh database is created, so the next start still finds it fresh
 * and prints the first token.
 */
export function listen(
  kind: ServerKind,
  host: string,
  port: number,
  limits: ServerLimits,
): Promise<Listening> {
  const serverOptions = {
    ...serverCreationOptions,
    connectionsCheckingInterval: connectionsCheckingIntervalMs(limits),
  };
  return new Promise((resolve, reject) => {
    const fail = (error: NodeJS.ErrnoException) =>
      reject(
        new CliError(
          error.code === 'EADDRINUSE'
            ? `port ${port} on ${host} is already in use (pass --port)`
            : `cannot listen on ${host}:${port}: ${error.message}`,
        ),
      );
    if (kind === 'node') {
      let handler: ((req: IncomingMessage, res: ServerResponse) => void) | null = null;
      const server = createServer(serverOptions, (req, res) => {
        if (handler) return handler(req, res);
        res.writeHead(starting.status, startingHeaders).end(starting.body);
      });
      applyServerLimits(server, limits);
      server.once('error', fail);
      server.listen(port, host, () =>
        resolve({
          server,
          serve: (tracker) => {
            handler = nodeHandler(tracker);
          },
        }),
      );
      return;
    }
    loadHonoListener().then(
      (listenHono) =>
        listenHono(
          host,
          port,
          () => new Response(starting.body, { ...starting, headers: startingHeaders }),
          fail,
          serverOptions,
        ).then((listening) => {
          applyServerLimits(listening.server, limits);
          resolve(listening);
        }),
      reject,
    );
  });
}

/**
 * The Hono host's listener. hono and @hono/node-server are optional peers of this package, so
 * they are loaded only when asked for, with an error that says how to get them.
 */
async function loadHonoListener() {
  try {
    return (await import('./listen-hono.js')).listenHono;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    throw new CliError(
      '--server hono needs the optional packages hono and @hono/node-server: npm install hono @hono/node-server',
    );
  }
}

/** The base URL clients use: a wildcard address is shown as localhost, IPv6 in brackets. */
export function originOf(server: Server, host: string): string {
  const { port } = server.address() as AddressInfo;
  const shown = host === '0.0.0.0' || host === '::' ? 'localhost' : host;
  return `http://${shown.includes(':') ? `[${shown}]` : shown}:${port}`;
}
