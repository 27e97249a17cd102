import { createTracker, type SignalEvent, type Storage, type Tracker } from '../../src/core/index.js';
import { type FakeClock, fakeClock, type SeededWorkspace, seedWorkspace } from '../http/harness.js';
import type { AdapterUnderTest } from '../support/adapters.js';

/** One answer of the plain request handler, with lower-case header names and the parsed body. */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  /** The raw body text ('' when there is none). */
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: properties read arbitrary JSON members
  json: any;
}

export interface CallOptions {
  /** Serialized with JSON.stringify; a string is sent as it is (to control key order). */
  body?: unknown;
  headers?: Record<string, string>;
  query?: Record<string, string>;
  /** Defaults to the workspace admin's read_write token. */
  token?: string;
}

/** A tracker over a fresh store of one adapter, seeded with one workspace and one project. */
export interface World {
  tracker: Tracker;
  clock: FakeClock;
  ws: SeededWorkspace;
  /** Sends one request through the whole pipeline (no sockets). */
  call(method: string, path: string, options?: CallOptions): Promise<Answer>;
  close(): Promise<void>;
}

export interface WorldOptions {
  /** Wraps the adapter's storage before the tracker sees it (to interleave or observe its calls). */
  wrap?: (storage: Storage) => Storage;
  clock?: FakeClock;
}

let worlds = 0;

/**
 * Opens a world on a fresh store of `adapter`. Rate limiting is off so that long command
 * sequences are never refused; unexpected errors fail the property instead of being logged.
 */
export async function openWorld(adapter: AdapterUnderTest, options: WorldOptions = {}): Promise<World> {
  const inner = await adapter.create();
  const storage = options.wrap ? options.wrap(inner) : inner;
  const clock = options.clock ?? fakeClock();
  const errors: unknown[] = [];
  const tracker = createTracker({
    storage,
    clock,
    rateLimit: false,
    onError: (error) => {
      errors.push(error);
    },
  });
  worlds += 1;
  const ws = await seedWorkspace(
    tracker,
    storage,
    tracker.ids,
    clock.now(),
    `prop-${worlds}`,
    'admin@prop.test',
  );
  return {
    tracker,
    clock,
    ws,
    async call(method, path, callOptions = {}) {
      const headers: Record<string, string> = {
        authorization: `Bearer ${callOptions.token ?? ws.adminToken}`,
        ...(callOptions.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...callOptions.headers,
      };
      const body =
        callOptions.body === undefined
          ? null
          : typeof callOptions.body === 'string'
            ? callOptions.body
            : JSON.stringify(callOptions.body);
      const response = await tracker.handle({
        method,
        path: `/api/v1${path}`,
        headers,
        body,
        ...(callOptions.query ? { query: callOptions.query } : {}),
      });
      if (response.status >= 500) {
        throw new Error(
          `${method} ${path} answered ${response.status}: ${String(errors.at(-1) ?? response.body)}`,
        );
      }
      const lower: Record<string, string> = {};
      for (const [name, value] of Object.entries(response.headers)) lower[name.toLowerCase()] = value;
      const text =
        typeof response.body === 'string' ? response.body : Buffer.from(response.body ?? '').toString();
      return {
        status: response.status,
        headers: lower,
        text,
        json: text === '' ? undefined : JSON.parse(text),
      };
    },
    close: () => tracker.close(),
  };
}

/** Runs `body` in a fresh world and closes the world afterwards, whatever happens. */
export async function inWorld<T>(
  adapter: AdapterUnderTest,
  body: (world: World) => Promise<T>,
  options: WorldOptions = {},
): Promise<T> {
  const world = await openWorld(adapter, options);
  try {
    return await body(world);
  } finally {
    await world.close();
  }
}

/** Every signal of the world's account after `after`, read page by page through GET /signals. */
export async function readSignals(world: World, after = 0, limit = 50): Promise<SignalEvent[]> {
  const events: SignalEvent[] = [];
  let cursor = after;
  for (;;) {
    const page = await world.call('GET', '/signals', {
      query: { after: String(cursor), limit: String(limit) },
    });
    if (page.status !== 200) throw new Error(`GET /signals answered ${page.status}: ${page.text}`);
    events.push(...page.json.data);
    if (page.json.data.length === 0) return events;
    cursor = page.json.data.at(-1).sequence;
  }
}

/** The number of signals of the world's account so far (the list's total). */
export async function signalCount(world: World): Promise<number> {
  const page = await world.call('GET', '/signals', { query: { limit: '1' } });
  return page.json.total;
}

export { runsOn } from '../support/adapters.js';
