import { afterEach, describe, expect, it } from 'vitest';
import { memoryStorage } from '../../src/adapters/memory/index.js';
import { defaultServerLimits, type ServerLimits } from '../../src/cli/server/limits.js';
import { type Listening, listen, serverKinds } from '../../src/cli/server/listen.js';
import { createTracker, type Tracker } from '../../src/core/index.js';
import { rawExchange, statusesOf } from './raw-socket.js';

/** The body and headers of the one response in a raw exchange. */
function parse(received: string) {
  const [head = '', body = ''] = received.split('\r\n\r\n');
  const headers = new Map(
    head
      .split('\r\n')
      .slice(1)
      .map((line) => [
        line.slice(0, line.indexOf(':')).toLowerCase(),
        line.slice(line.indexOf(':') + 1).trim(),
      ]),
  );
  return { headers, json: JSON.parse(body) };
}

describe.each(serverKinds)('requests Node refuses before the app, through the %s host of serve', (kind) => {
  let listening: Listening;
  let tracker: Tracker;
  let url: string;
  afterEach(async () => {
    listening.server.closeAllConnections();
    await new Promise((done) => listening.server.close(done));
    await tracker.close();
  });

  async function start(limits: Partial<ServerLimits> = {}) {
    listening = await listen(kind, '127.0.0.1', 0, { ...defaultServerLimits, ...limits });
    tracker = createTracker({ storage: memoryStorage() });
    listening.serve(tracker);
    const address = listening.server.address();
    if (!address || typeof address === 'string') throw new Error('not listening');
    url = `http://127.0.0.1:${address.port}`;
  }

  it('applies the configured timeouts', async () => {
    await start({
      headersTimeoutMs: 7_000,
      requestTimeoutMs: 9_000,
      keepAliveTimeoutMs: 3_000,
      maxConnections: 50,
    });
    const { server } = listening;
    expect([server.headersTimeout, server.requestTimeout, server.keepAliveTimeout]).toEqual([
      7_000, 9_000, 3_000,
    ]);
    // The connection cap is the server's own admission, not Node's `maxConnections` (which would
    // close a connection before room could be made for it): fair-connections.test.ts.
  });

  it.each([
    [
      'oversized headers',
      `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(64 * 1024)}\r\n\r\n`,
      431,
      'headers_too_large',
    ],
    ['a malformed request line', 'THIS IS NOT HTTP\r\n\r\n', 400, 'malformed_request'],
    ['a bad header line', 'GET /healthz HTTP/1.1\r\nHost x\r\n\r\n', 400, 'malformed_request'],
    // HTTP/1.1 without Host, which Node answered with a bare 400 and no body.
    ['an HTTP/1.1 request without Host', 'GET /healthz HTTP/1.1\r\n\r\n', 400, 'malformed_request'],
    // A tunnel request, which Node hands past the app (and closed unanswered).
    ['CONNECT', 'CONNECT 127.0.0.1:80 HTTP/1.1\r\nHost: 127.0.0.1:80\r\n\r\n', 405, 'method_not_allowed'],
  ])('answers %s with problem+json, an X-Request-Id, and closes', async (_, request, status, error) => {
    await start();
    const exchange = await rawExchange(url, [request]);
    expect(exchange.closed).toBe(true);
    expect(statusesOf(exchange.received)).toEqual([status]);
    const { headers, json } = parse(exchange.received);
    expect(headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    expect(headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(headers.get('connection')).toBe('close');
    expect(json).toMatchObject({ status, error, title: expect.any(String), detail: expect.any(String) });
  });

  it('answers a client too slow to send its headers with 408 and closes', async () => {
    await start({ headersTimeoutMs: 500, requestTimeoutMs: 1_000 });
    // Half a request line, then nothing: the server must not wait forever.
    const exchange = await rawExchange(url, ['GET /healthz HTTP/1.1\r\nHost: x\r\n'], 20_000);
    expect(exchange.closed).toBe(true);
    expect(statusesOf(exchange.received)).toEqual([408]);
    expect(parse(exchange.received).json.error).toBe('request_timeout');
  });
});
