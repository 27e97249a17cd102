import { afterEach, describe, expect, it } from 'vitest';
import { hosts, startServer, type TestServer } from '../http/harness.js';
import { rawExchange, statusesOf } from './raw-socket.js';

/**
 * After a 413 the rest of an oversized body is still on the way; a server that keeps the
 * connection alive would read it as the next request (or wait for it forever). Both hosts close
 * the connection, so the client's next request on that socket fails fast instead of hanging.
 */
describe.each(hosts)('a 413 through the %s host', (host) => {
  let server: TestServer;
  afterEach(() => server?.close());

  it('closes the connection, so a request sent after the oversized body on that socket does not hang', async () => {
    server = await startServer(host);
    const declared = 3 * 1024 * 1024;
    const head =
      `POST /api/v1/issues HTTP/1.1\r\nHost: tracker\r\nAuthorization: Bearer ${server.tokens.admin}\r\n` +
      `Content-Type: application/json\r\nIdempotency-Key: ${crypto.randomUUID()}\r\n` +
      `Content-Length: ${declared}\r\n\r\n`;
    // Only part of the declared body is sent, then (as a keep-alive client would) the next request.
    const part = new Uint8Array(1536 * 1024).fill(0x20);
    const next = `GET /healthz HTTP/1.1\r\nHost: tracker\r\n\r\n`;
    const exchange = await rawExchange(server.url, [head, part, next]);
    expect(exchange.closed).toBe(true);
    expect(statusesOf(exchange.received)[0]).toBe(413);
    expect(exchange.received.toLowerCase()).toContain('connection: close');
    expect(exchange.received.toLowerCase()).toContain('x-request-id: ');
  });

  const headOf = (declared: number) =>
    `POST /api/v1/issues HTTP/1.1\r\nHost: tracker\r\nAuthorization: Bearer ${server.tokens.admin}\r\n` +
    `Content-Type: application/json\r\nIdempotency-Key: ${crypto.randomUUID()}\r\n` +
    `Content-Length: ${declared}\r\n\r\n`;

  it('answers a body declared larger than allowed with 413 at once, without waiting for it', async () => {
    server = await startServer(host);
    // Nothing of the body is sent: reading up to the limit first waited for the request timeout.
    const exchange = await rawExchange(server.url, [headOf(99_999_999_999)]);
    expect(exchange.closed).toBe(true);
    expect(statusesOf(exchange.received)).toEqual([413]);
    expect(exchange.received).toContain('"error":"payload_too_large"');
  });

  it('closes the connection of a body declared too large even when the answer is not a 413 (no token: 401)', async () => {
    server = await startServer(host);
    const head =
      'POST /api/v1/issues HTTP/1.1\r\nHost: tracker\r\nContent-Type: application/json\r\n' +
      'Content-Length: 99999999999\r\n\r\n';
    const exchange = await rawExchange(server.url, [head]);
    expect(exchange.closed).toBe(true);
    expect(statusesOf(exchange.received)).toEqual([401]);
    expect(exchange.received.toLowerCase()).toContain('connection: close');
  });

  it('keeps reading what a client still sends after its 413, so the answer reaches it whole', async () => {
    server = await startServer(host);
    // Megabytes keep coming after the answer: closing with them unread would reset the connection.
    const chunks = Array.from({ length: 24 }, () => new Uint8Array(256 * 1024).fill(0x20));
    const exchange = await rawExchange(server.url, [headOf(99_999_999_999), ...chunks]);
    expect(exchange.closed).toBe(true);
    expect(statusesOf(exchange.received)).toEqual([413]);
    expect(exchange.received.toLowerCase()).toContain('connection: close');
    expect(exchange.received).toContain('"error":"payload_too_large"');
  });

  it('lets a client that sends its whole body before reading (fetch) read its 413', async () => {
    server = await startServer(host);
    const body = ' '.repeat(4 * 1024 * 1024);
    for (let i = 0; i < 3; i++) {
      const response = await fetch(`${server.url}/api/v1/issues`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${server.tokens.admin}`,
          'content-type': 'application/json',
          'idempotency-key': crypto.randomUUID(),
        },
        body,
      });
      expect(response.status).toBe(413);
      expect(await response.json()).toMatchObject({ error: 'payload_too_large' });
    }
  });

  it('keeps the connection for a request whose body was read whole', async () => {
    server = await startServer(host);
    const body = '{"title":""}';
    const request =
      `POST /api/v1/issues HTTP/1.1\r\nHost: tracker\r\nAuthorization: Bearer ${server.tokens.admin}\r\n` +
      `Content-Type: application/json\r\nIdempotency-Key: ${crypto.randomUUID()}\r\n` +
      `Content-Length: ${body.length}\r\n\r\n${body}`;
    const last = `GET /healthz HTTP/1.1\r\nHost: tracker\r\nConnection: close\r\n\r\n`;
    const exchange = await rawExchange(server.url, [request, last]);
    expect(statusesOf(exchange.received)).toEqual([400, 200]);
  });
});
