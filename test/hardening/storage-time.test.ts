import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryStorage } from '../../src/adapters/memory/index.js';
import { sqliteStorage } from '../../src/adapters/sqlite/index.js';
import {
  createTracker,
  memoryStorageTimeStore,
  randomIds,
  type Storage,
  type TrackerOptions,
  tenancy,
} from '../../src/core/index.js';
import { assertBuilt, type Served, type Startup, startServeJson, tempDir } from '../cli/process.js';

/**
 * Each account's share of the storage's time (docs/api.md, "Storage time"): an account whose
 * requests took more than its share answers 429, while another account with share left is
 * active, until the share refills; other accounts do not notice. Alone, it is never held back
 * (storage-time-share.test.ts tests both sides over every adapter).
 */

/** A memory store whose transactions all say they took `costMs()`. */
function storageTaking(costMs: () => number): Storage {
  const inner = memoryStorage();
  return {
    transaction: (fn, options) => inner.transaction((tx) => fn({ ...tx, busyMs: costMs }), options),
    close: () => inner.close(),
  };
}

/** Two workspaces, each of an account of its own: their admins' tokens. */
async function twoTokens(storage: Storage): Promise<Record<'a' | 'b', string>> {
  const tokenOf = async (slug: string) =>
    (
      await storage.transaction((tx) =>
        tenancy.initWorkspace(
          { tx, ids: randomIds, now: Date.now() },
          { slug, adminEmail: `${slug}@example.com` },
        ),
      )
    ).token;
  return { a: await tokenOf('alpha'), b: await tokenOf('beta') };
}

async function twoAccounts(options: Omit<TrackerOptions, 'storage'>, storage: Storage) {
  // The request limit stays on (100 a minute, more than these tests send).
  const tracker = createTracker({ ...options, storage });
  const tokens = await twoTokens(storage);
  const list = (who: 'a' | 'b') =>
    tracker.handle({
      method: 'GET',
      path: '/api/v1/projects',
      headers: { authorization: `Bearer ${tokens[who]}` },
    });
  return { tracker, list, tokens };
}

describe('storage time per account', () => {
  it('refuses an account that used its share, with Retry-After, while another is active, and serves the others', async () => {
    let now = Date.parse('2026-11-27T10:00:00.000Z');
    let cost = 4_000;
    const { tracker, list } = await twoAccounts(
      { clock: { now: () => now } },
      storageTaking(() => cost),
    );
    /** A request of B, which takes nothing of the storage: B is active, with its share left. */
    const lightB = async () => {
      const was = cost;
      cost = 0;
      expect((await list('b')).status).toBe(200);
      cost = was;
    };
    await lightB();
    // 10,000 ms a minute: 4,000 + 4,000 + 4,000 overdraws it by 2,000.
    for (let i = 0; i < 3; i++) expect((await list('a')).status).toBe(200);
    const refused = await list('a');
    expect(refused.status).toBe(429);
    expect(refused.headers['Content-Type']).toContain('application/problem+json');
    expect(JSON.parse(String(refused.body))).toMatchObject({
      error: 'rate_limited',
      status: 429,
      retryAfter: 13,
    });
    // 2,000 ms refill at a sixth of a ms each ms: 12 s, and a ms more to have some.
    expect(refused.headers['Retry-After']).toBe('13');
    // The request limit's headers still tell of the request limit, which it did not reach.
    expect(Number(refused.headers['X-RateLimit-Remaining'])).toBeGreaterThan(0);
    expect(refused.headers.RateLimit).toMatch(/^"default";r=[1-9]/);
    await lightB();
    now += 12_000;
    await lightB();
    expect((await list('a')).status).toBe(429);
    now += 1_000;
    expect((await list('a')).status).toBe(200);
    // B has gone quiet (2 s): A, alone, is admitted though its share is spent.
    now += 2_001;
    for (let i = 0; i < 5; i++) expect((await list('a')).status).toBe(200);
    await tracker.close();
  });

  it('charges the serializing of an answer to its account: pages of large issues spend the share though the storage takes no time', async () => {
    const now = Date.parse('2026-11-27T10:00:00.000Z');
    const { tracker, tokens } = await twoAccounts(
      {
        clock: { now: () => now },
        rateLimit: false,
        storageTimeBudget: { msPerWindow: 100, windowMs: 60_000 },
      },
      storageTaking(() => 0),
    );
    const api = (who: 'a' | 'b', method: string, path: string, body?: unknown) =>
      tracker.handle({
        method,
        path: `/api/v1${path}`,
        headers: {
          authorization: `Bearer ${tokens[who]}`,
          'content-type': 'application/json',
          'idempotency-key': crypto.randomUUID(),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const project = JSON.parse(String((await api('a', 'POST', '/projects', { name: 'Big' })).body)) as {
      id: string;
    };
    const description = 'd'.repeat(50_000);
    for (let i = 0; i < 100; i++) {
      expect(
        (await api('a', 'POST', '/issues', { projectId: project.id, title: `Big ${i}`, description })).status,
      ).toBe(201);
    }
    // B is active from now on (the clock stands still), with its share untouched.
    expect((await api('b', 'GET', '/issues')).status).toBe(200);
    // Each page is 5 MB of JSON: a few ms to serialize at the least, 100 ms of share in all.
    const statuses: number[] = [];
    for (let i = 0; i < 100 && !statuses.includes(429); i++) {
      statuses.push((await api('a', 'GET', '/issues?limit=200')).status);
    }
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThan(0);
    expect((await api('b', 'GET', '/issues?limit=200')).status).toBe(200);
    await tracker.close();
  });

  it('is not charged for a refused request, so a client retrying at once is not kept out longer', async () => {
    let now = Date.parse('2026-11-27T10:00:00.000Z');
    let cost = 0;
    const { tracker, list } = await twoAccounts(
      { clock: { now: () => now }, storageTimeBudget: { msPerWindow: 1_000, windowMs: 60_000 } },
      storageTaking(() => cost),
    );
    /** A request of B, which takes nothing of the storage: B stays active with its share left. */
    const lightB = async () => {
      const was = cost;
      cost = 0;
      expect((await list('b')).status).toBe(200);
      cost = was;
    };
    await lightB();
    cost = 1_500;
    expect((await list('a')).status).toBe(200);
    // This store says every transaction took 1,500 ms, the refused ones too: they are not charged.
    for (let i = 0; i < 5; i++) expect((await list('a')).status).toBe(429);
    // 30 s refill the 500 ms of debt; 3 s more cover the real time each answer's serialization is
    // charged (a busy machine's ms). Charged, the refused five would keep it out for minutes.
    now += 33_000;
    await lightB();
    expect((await list('a')).status).toBe(200);
    await tracker.close();
  });

  it("charges an event stream's reads to its account, and slows the stream once the share is spent", async () => {
    let now = Date.parse('2026-11-27T10:00:00.000Z');
    let cost = 0;
    const storage = storageTaking(() => cost);
    const { tracker, list, tokens } = await twoAccounts({ clock: { now: () => now } }, storage);
    // B is active (the clock stands still until the end), with its share untouched.
    expect((await list('b')).status).toBe(200);
    const created = await tracker.handle({
      method: 'POST',
      path: '/api/v1/projects',
      headers: {
        authorization: `Bearer ${tokens.a}`,
        'content-type': 'application/json',
        'idempotency-key': crypto.randomUUID(),
      },
      body: JSON.stringify({ name: 'Watched' }),
    });
    expect(created.status).toBe(201);
    cost = 4_000;
    const opened = await tracker.handle({
      method: 'GET',
      path: '/api/v1/signals?after=0',
      headers: { authorization: `Bearer ${tokens.a}`, accept: 'text/event-stream' },
    });
    expect(opened.status).toBe(200);
    const stream = (opened.stream as AsyncIterable<string>)[Symbol.asyncIterator]();
    expect((await stream.next()).value).toContain('retry:');
    expect((await stream.next()).value).toContain('project.created');
    // Opening took 4,000 ms of the 10,000, the stream's read 4,000 more: one more request fits.
    expect((await list('a')).status).toBe(200);
    expect((await list('a')).status).toBe(429);
    // Spent, the stream waits for the share to refill before it reads again.
    let read = false;
    const next = stream.next().then(() => {
      read = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(read).toBe(false);
    now += 60_000;
    await next;
    expect(read).toBe(true);
    await stream.return?.();
    expect((await list('b')).status).toBe(200);
    await tracker.close();
  }, 20_000);

  it("shares the buckets through the storage's store, and settles what is left before the storage closes", async () => {
    const events: string[] = [];
    const shared = memoryStorageTimeStore();
    const inner = storageTaking(() => 5);
    const storage: Storage = {
      ...inner,
      storageTimes: {
        settle: (charges, ...rest) => {
          // The 5 ms of its statements, and the little its answer took to serialize.
          events.push(`settle ${[...charges.values()].map(Math.floor).join(',')}`);
          return shared.settle(charges, ...rest);
        },
      },
      close: async () => {
        events.push('storage closed');
        await inner.close();
      },
    };
    const { tracker, list } = await twoAccounts({}, storage);
    expect((await list('a')).status).toBe(200);
    await tracker.close();
    // Settled at close (a second had not passed), before the storage closed.
    expect(events).toEqual(['settle 5', 'storage closed']);
  });

  it('never refuses with `storageTimeBudget: false`, nor with `rateLimit: false` unless it is given', async () => {
    for (const options of [{ storageTimeBudget: false as const }, { rateLimit: false as const }]) {
      const { tracker, list } = await twoAccounts(
        options,
        storageTaking(() => 60_000),
      );
      for (let i = 0; i < 5; i++) expect((await list('a')).status).toBe(200);
      await tracker.close();
    }
    let cost = 0;
    const { tracker, list } = await twoAccounts(
      { rateLimit: false, storageTimeBudget: { msPerWindow: 1_000 } },
      storageTaking(() => cost),
    );
    expect((await list('b')).status).toBe(200);
    cost = 60_000;
    expect((await list('a')).status).toBe(200);
    expect((await list('a')).status).toBe(429);
    await tracker.close();
  });
});

describe('storage time over a real server: a SQLite file, `serve --storage-time`', () => {
  let served: Served & { startup: Startup };
  let tokens: Record<'a' | 'b', string>;

  beforeAll(async () => {
    assertBuilt();
    const db = join(tempDir(), 'tracker.db');
    const storage = sqliteStorage({ filename: db });
    tokens = await twoTokens(storage);
    await storage.close();
    // 20 ms a minute: a hundred or two requests' statements.
    served = await startServeJson([
      '--db',
      db,
      '--rate-limit',
      '0',
      '--storage-time',
      '20',
      '--log-level',
      'warn',
    ]);
  }, 60_000);
  afterAll(async () => {
    await served?.stop('SIGKILL');
  });

  const get = (token: string) =>
    fetch(`${served.startup.apiUrl}/issues?limit=50`, { headers: { authorization: `Bearer ${token}` } });

  it('admits A alone, in 8 loops, far past its share', async () => {
    const statuses = await Promise.all(
      Array.from({ length: 8 }, async () => {
        const seen: number[] = [];
        for (let i = 0; i < 80; i++) {
          const response = await get(tokens.a);
          await response.arrayBuffer();
          seen.push(response.status);
        }
        return seen;
      }),
    );
    expect(new Set(statuses.flat())).toEqual(new Set([200]));
  }, 120_000);

  it('refuses A, whose statements took its share alone, while B, active beside it, is never refused', async () => {
    let refused: Response | null = null;
    let answered = 0;
    const bStatuses: number[] = [];
    for (let i = 0; i < 5_000 && !refused; i++) {
      if (i % 10 === 0) {
        // B reads now and then: active, and far from its share.
        const b = await get(tokens.b);
        await b.arrayBuffer();
        bStatuses.push(b.status);
      }
      const response = await get(tokens.a);
      if (response.status === 429) refused = response;
      else {
        expect(response.status).toBe(200);
        answered++;
        await response.arrayBuffer();
      }
    }
    expect(refused).not.toBeNull();
    const problem = await (refused as Response).json();
    expect(problem).toMatchObject({ error: 'rate_limited', status: 429 });
    expect(Number((refused as Response).headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const b = await get(tokens.b);
    await b.arrayBuffer();
    bStatuses.push(b.status);
    expect(new Set(bStatuses)).toEqual(new Set([200]));
    // A emptied its bucket alone (above): it is held as soon as B is seen.
    console.info(`A, beside B: ${answered} answered before the first 429`);
  }, 60_000);
});
