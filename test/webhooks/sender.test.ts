import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { WebhookRequest } from '../../src/core/index.js';
import { nodeWebhookSender } from '../../src/http/webhook-sender.js';

let server: Server | null = null;
afterEach(async () => {
  if (!server) return;
  server.closeAllConnections();
  await new Promise<void>((resolve) => server?.close(() => resolve()));
  server = null;
});

/** A loopback server answering with `handle`; returns its URL. */
async function serve(handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  server = createServer(handle);
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
}

const request = (url: string, timeoutMs = 10_000): WebhookRequest => ({
  url,
  headers: { 'Content-Type': 'application/json', 'X-Service-Event-Id': 'e1' },
  body: '{"id":"e1","note":"Grüße"}',
  timeoutMs,
  allowPrivateTargets: true,
});

describe('the Node webhook sender', () => {
  it('POSTs the exact body bytes with its headers and a Content-Length, and reports the status', async () => {
    let seen: { method?: string; headers?: IncomingMessage['headers']; body?: string } = {};
    const url = await serve((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen = { method: req.method, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
        res.writeHead(202, { 'Retry-After': '5' }).end('ok');
      });
    });
    const result = await nodeWebhookSender().send(request(url));
    expect(result).toMatchObject({ status: 202, retryAfter: '5', error: null });
    expect(seen.method).toBe('POST');
    expect(seen.body).toBe('{"id":"e1","note":"Grüße"}');
    expect(seen.headers?.['content-length']).toBe(String(Buffer.byteLength('{"id":"e1","note":"Grüße"}')));
    expect(seen.headers?.['x-service-event-id']).toBe('e1');
  });

  it('gives up on a receiver that does not answer in time', async () => {
    const url = await serve(() => {});
    const result = await nodeWebhookSender().send(request(url, 100));
    expect(result).toMatchObject({ status: null, error: 'no answer within 100 ms' });
  });

  it('gives up on a receiver that sends its status but never finishes the body', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200);
      res.write('partial');
      const drip = setInterval(() => res.write('.'), 20);
      res.on('close', () => clearInterval(drip));
    });
    const result = await nodeWebhookSender().send(request(url, 150));
    expect(result).toMatchObject({ status: null, error: 'no answer within 150 ms' });
  });

  it('counts an answer cut off mid-body as no answer', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'Content-Length': '1000' });
      res.write('only part of it');
      setImmediate(() => res.destroy());
    });
    const result = await nodeWebhookSender().send(request(url));
    expect(result.status).toBeNull();
    expect(result.error).toMatch(/closed before the answer was complete|aborted|socket hang up/);
  });

  it('keeps the status, headers and the first 4 KiB of an oversized answer without reading all of it', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'X-Receiver': 'big' });
      res.end(Buffer.concat([Buffer.from('head:'), Buffer.alloc(1024 * 1024, 'x')]));
    });
    const result = await nodeWebhookSender().send(request(url));
    expect(result).toMatchObject({ status: 200, error: null, responseBodyTruncated: true });
    expect(result.responseHeaders?.['x-receiver']).toBe('big');
    expect(result.responseBody).toBe(`head:${'x'.repeat(4096 - 5)}`);
  });

  it('keeps a short answer whole, with its headers', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(409, { 'Content-Type': 'text/plain', 'X-Request-Id': 'r-1' }).end('duplicate');
    });
    const result = await nodeWebhookSender().send(request(url));
    expect(result).toMatchObject({
      status: 409,
      responseBody: 'duplicate',
      responseBodyTruncated: false,
    });
    expect(result.responseHeaders).toMatchObject({ 'content-type': 'text/plain', 'x-request-id': 'r-1' });
  });

  it('keeps the connection to a receiver alive across deliveries', async () => {
    let connections = 0;
    const url = await serve((req, res) => {
      req.resume();
      req.on('end', () => res.end('ok'));
    });
    server?.on('connection', () => connections++);
    const sender = nodeWebhookSender();
    for (let i = 0; i < 5; i++) expect((await sender.send(request(url))).status).toBe(200);
    await Promise.all(Array.from({ length: 3 }, () => sender.send(request(url))));
    expect(connections).toBeLessThanOrEqual(3);
    sender.close?.();
  });

  it('refuses http unless private targets are allowed, before connecting', async () => {
    let connections = 0;
    const url = await serve((_req, res) => res.end());
    server?.on('connection', () => connections++);
    const result = await nodeWebhookSender().send({ ...request(url), allowPrivateTargets: false });
    expect(result).toMatchObject({ status: null, error: 'only https URLs are delivered to' });
    expect(connections).toBe(0);
  });
});
