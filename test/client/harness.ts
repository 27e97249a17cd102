import { memoryStorage } from '../../src/adapters/memory/index.js';
import { type Client, type ClientOptions, createClient } from '../../src/client/index.js';
import { createTracker, type Tracker } from '../../src/core/index.js';
import {
  type FakeClock,
  fakeClock,
  type Host,
  type SeededWorkspace,
  seedWorkspace,
  startServer,
} from '../http/harness.js';

/** How a test reaches the API: through one of the two hosts over real HTTP, or in process. */
export type Mode = Host | 'in-process';
export const modes: readonly Mode[] = ['node', 'hono', 'in-process'];

/** A tracker with a seeded workspace, and clients of it. */
export interface ClientFixture {
  mode: Mode;
  tracker: Tracker;
  clock: FakeClock;
  ws: SeededWorkspace;
  /** The server's origin, or null in process (no server, no socket). */
  url: string | null;
  /** A client acting as the workspace admin; `options` override the defaults. */
  client(options?: Partial<ClientOptions>): Client;
  close(): Promise<void>;
}

export interface FixtureOptions {
  rateLimit?: { limit: number; windowMs?: number } | false;
  clock?: FakeClock;
}

/** Starts what `mode` needs: a real server on 127.0.0.1 (port 0), or only the tracker. */
export async function clientFixture(mode: Mode, options: FixtureOptions = {}): Promise<ClientFixture> {
  const rateLimit = options.rateLimit ?? false;
  if (mode !== 'in-process') {
    const s = await startServer(mode, { rateLimit, ...(options.clock ? { clock: options.clock } : {}) });
    return {
      mode,
      tracker: s.tracker,
      clock: s.clock,
      ws: s.ws,
      url: s.url,
      client: (overrides) => createClient({ baseUrl: s.url, token: s.ws.adminToken, ...overrides }),
      close: () => s.close(),
    };
  }
  const clock = options.clock ?? fakeClock();
  const storage = memoryStorage();
  const tracker = createTracker({ storage, clock, rateLimit, onError: () => {} });
  const ws = await seedWorkspace(tracker, storage, tracker.ids, clock.now(), 'acme', 'admin@acme.test');
  return {
    mode,
    tracker,
    clock,
    ws,
    url: null,
    client: (overrides) => createClient({ tracker, token: ws.adminToken, ...overrides }),
    close: () => tracker.close(),
  };
}

/** A clock that is the wall clock, for tests that wait out a real Retry-After. */
export function wallClock(): FakeClock {
  return {
    now: () => Date.now(),
    advance: () => {
      throw new Error('the wall clock cannot be moved');
    },
    set: () => {
      throw new Error('the wall clock cannot be set');
    },
  };
}

/**
 * A fetch that records each request (method, path, Idempotency-Key, If-Match), the status of each
 * answer (null when none came), and how long the client waited after each 429 before its next try.
 */
export function recordingFetch(inner: (request: Request) => Promise<Response> = (r) => fetch(r)) {
  const sent: { method: string; path: string; idempotencyKey: string | null; ifMatch: string | null }[] = [];
  const statuses: (number | null)[] = [];
  const waitedMs: number[] = [];
  let limitedAt: number | null = null;
  const wrapped = async (request: Request) => {
    if (limitedAt !== null) waitedMs.push(Date.now() - limitedAt);
    limitedAt = null;
    const url = new URL(request.url);
    sent.push({
      method: request.method,
      path: `${url.pathname}${url.search}`,
      idempotencyKey: request.headers.get('idempotency-key'),
      ifMatch: request.headers.get('if-match'),
    });
    try {
      const response = await inner(request);
      statuses.push(response.status);
      if (response.status === 429) limitedAt = Date.now();
      return response;
    } catch (error) {
      statuses.push(null);
      throw error;
    }
  };
  return { fetch: wrapped, sent, statuses, waitedMs };
}
