import { afterEach, describe, expect, it } from 'vitest';
import { memoryStorage } from '../../src/adapters/memory/index.js';
import { createTracker, type Tracker } from '../../src/core/index.js';
import { bodyTimeoutMs } from '../../src/core/pipeline/admit-body.js';
import { fakeClock, hosts, listen, seedWorkspace } from '../http/harness.js';
import { rawExchange, statusesOf } from './raw-socket.js';

/**
 * A body is read only once the request's headers admit it: the rate limit, and for the API a
 * token that authenticates. A refused request costs no read of its body.
 */
describe('the body of a request is read only once its headers admit it', () => {
  let tracker: Tracker;
  afterEach(async () => {
    await tracker.close();
  });

  async function start(limit: number) {
    const clock = fakeClock();
    tracker = createTracker({ storage: memoryStorage(), clock, rateLimit: { limit } });
    return seedWorkspace(tracker, tracker.storage, tracker.ids, clock.now(), 'acme', 'admin@acme.test');
  }

  /** A create whose body counts how often it was read. */
  function create(authorization?: string) {
    let reads = 0;
    const body = JSON.stringify({ name: 'Read once admitted' });
    const request = {
      method: 'POST',
      path: '/api/v1/projects',
      headers: {
        ...(authorization ? { authorization } : {}),
        'content-type': 'application/json',
        'idempotency-key': crypto.randomUUID(),
      },
      readBody: async () => {
        reads++;
        return new TextEncoder().encode(body);
      },
    };
    return { request, reads: () => reads };
  }

  it('answers 401 to a request without a token, or with a revoked or unknown one, its body unread', async () => {
    const ws = await start(100);
    await tracker.storage.transaction((tx) => tx.tokens.revoke(ws.adminTokenId, new Date().toISOString()));
    for (const authorization of [undefined, `Bearer ${ws.adminToken}`, `Bearer cn_${'x'.repeat(43)}`]) {
      const { request, reads } = create(authorization);
      const response = await tracker.handle(request);
      expect(response.status).toBe(401);
      expect(reads()).toBe(0);
    }
  });

  it('answers 429 once the limit is spent, its body unread, and reads an admitted body once', async () => {
    const ws = await start(2);
    const authorization = `Bearer ${ws.adminToken}`;
    const answers: number[] = [];
    const readCounts: number[] = [];
    for (let i = 0; i < 3; i++) {
      const { request, reads } = create(authorization);
      answers.push((await tracker.handle(request)).status);
      readCounts.push(reads());
    }
    expect(answers).toEqual([201, 201, 429]);
    expect(readCounts).toEqual([1, 1, 0]);
  });

  it('reads the body of a token that authenticated lately with no read of the token first; a revoked one has one body read more, then none', async () => {
    const clock = fakeClock();
    const base = memoryStorage();
    let tokenReads = 0;
    // Every read transaction before a request's own is the token's read of its own (admit-body.ts).
    const storage = new Proxy(base, {
      get(target, property, receiver) {
        if (property !== 'transaction') return Reflect.get(target, property, receiver);
        return (work: never, options?: { mode?: string }) => {
          if (options?.mode === 'read') tokenReads++;
          return target.transaction(work, options as never);
        };
      },
    });
    tracker = createTracker({ storage, clock, rateLimit: false });
    const ws = await seedWorkspace(tracker, base, tracker.ids, clock.now(), 'acme', 'admin@acme.test');
    const authorization = `Bearer ${ws.adminToken}`;
    const send = async () => {
      const { request, reads } = create(authorization);
      const before = tokenReads;
      const { status } = await tracker.handle(request);
      return { status, bodyReads: reads(), tokenReads: tokenReads - before };
    };
    expect(await send()).toEqual({ status: 201, bodyReads: 1, tokenReads: 1 });
    expect(await send()).toEqual({ status: 201, bodyReads: 1, tokenReads: 0 });
    // A minute on, the token is read first again.
    clock.advance(60_001);
    expect(await send()).toEqual({ status: 201, bodyReads: 1, tokenReads: 1 });
    await base.transaction((tx) => tx.tokens.revoke(ws.adminTokenId, new Date(clock.now()).toISOString()));
    expect(await send()).toEqual({ status: 401, bodyReads: 1, tokenReads: 0 });
    expect(await send()).toEqual({ status: 401, bodyReads: 0, tokenReads: 1 });
  });
});

describe.each(hosts)('a body that does not arrive, through the %s host', (host) => {
  let tracker: Tracker;
  let close = async () => {};
  afterEach(async () => {
    await close();
    await tracker.close();
  });

  it(`is answered 408 request_timeout ${bodyTimeoutMs / 1000} s after its headers, and the connection closes`, async () => {
    const clock = fakeClock();
    tracker = createTracker({ storage: memoryStorage(), clock, rateLimit: false });
    const ws = await seedWorkspace(
      tracker,
      tracker.storage,
      tracker.ids,
      clock.now(),
      'acme',
      'admin@acme.test',
    );
    const { server, port } = await listen(host, tracker);
    close = () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    const exchange = await rawExchange(
      `http://127.0.0.1:${port}`,
      [
        `POST /api/v1/projects HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ws.adminToken}\r\nContent-Type: application/json\r\nIdempotency-Key: ${crypto.randomUUID()}\r\nContent-Length: 100\r\n\r\n{"na`,
      ],
      3 * bodyTimeoutMs,
    );
    expect(statusesOf(exchange.received)).toEqual([408]);
    expect(exchange.received).toContain('"error":"request_timeout"');
    expect(exchange.closed).toBe(true);
  }, 60_000);
});
