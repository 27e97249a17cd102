import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { memoryStorage } from '../../src/adapters/memory/index.js';
import { adminArea } from '../../src/admin/index.js';
import { createTracker, type Storage, type Tracker, type TrackerOptions } from '../../src/core/index.js';
import { honoApp } from '../../src/http/hono.js';
import { nodeHandler } from '../../src/http/node.js';
import { type Host, type SeededWorkspace, seedWorkspace } from '../http/harness.js';
import { testPasswordCost } from '../support/password-cost.js';

export interface EdgeServer {
  url: string;
  tracker: Tracker;
  ws: SeededWorkspace;
  close(): Promise<void>;
}

/** A tracker with the given options behind a real server of one host, with one seeded workspace. */
export async function startEdgeServer(
  host: Host,
  options: Partial<TrackerOptions> & { storage?: Storage } = {},
): Promise<EdgeServer> {
  const storage = options.storage ?? memoryStorage();
  const tracker = createTracker({
    onError: () => {},
    extensions: [adminArea({ passwordCost: testPasswordCost })],
    ...options,
    storage,
  });
  const ws = await seedWorkspace(tracker, storage, tracker.ids, Date.now(), 'acme', 'admin@acme.test');
  const server =
    host === 'node'
      ? createServer(nodeHandler(tracker))
      : (serve({ fetch: honoApp(tracker).fetch, port: 0, hostname: '127.0.0.1' }) as Server);
  if (host === 'node') server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => (server.listening ? resolve() : server.once('listening', resolve)));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    tracker,
    ws,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await tracker.close();
    },
  };
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body bytes exactly as sent, not decompressed. */
  body: Buffer;
}

/** One request over node:http, which (unlike fetch) leaves the body as it came off the wire. */
export function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: options.method ?? 'GET', headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(options.body);
  });
}
