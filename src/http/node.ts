import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  announcesBody,
  bodyTimeoutMs,
  bodyTooSlow,
  declaresOversizedBody,
  readStreamCapped,
} from '../core/host.js';
import { maxBodyBytes, type Tracker } from '../core/index.js';
import { lingerOnClose } from './linger.js';
import { nodeRequestHeaders } from './node-headers.js';

/** A `node:http` request listener serving the tracker: `http.createServer(nodeHandler(tracker))`. */
export function nodeHandler(tracker: Tracker): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    void respond(tracker, req, res).catch((error: unknown) => {
      // Only a failure to read the socket gets here: the core answers its own errors. A client
      // gone before its body arrived (or cut at shutdown) is no failure of the host.
      if (!req.socket.destroyed || req.readableAborted !== true) {
        console.error('[outcome-tracker] node host failed:', error);
      }
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/problem+json' });
      res.end();
    });
  };
}

async function respond(tracker: Tracker, req: IncomingMessage, res: ServerResponse): Promise<void> {
  // Read before the body: stopping an oversized body early detaches the socket from the request.
  const clientAddress = req.socket.remoteAddress ?? 'unknown';
  const secure = (req.socket as { encrypted?: boolean }).encrypted === true;
  const response = await tracker.handle({
    method: req.method ?? 'GET',
    // Express strips its mount path from req.url; the tracker's paths are the full ones.
    path: (req as FrameworkRequest).originalUrl ?? req.url ?? '/',
    headers: nodeRequestHeaders(req),
    ...(await bodyOf(req as FrameworkRequest)),
    clientAddress,
    secure,
  });
  // Closing after an unread body (oversized, too slow, or refused by the headers: 401, 429)
  // keeps its remainder from being parsed as a request; the close lingers, so that a client
  // still sending reads the answer rather than a reset.
  if (!req.readableEnded && announcesBody(req.headers)) {
    res.setHeader('Connection', 'close');
    lingerOnClose(req.socket);
  }
  if (response.stream) {
    res.writeHead(response.status, response.headers);
    return pipeStream(response.stream, res);
  }
  const body = response.body;
  // A known length spares the chunked framing: the head and the body leave in one write. It goes
  // in writeHead's object, not through setHeader: once setHeader was called, writeHead sets each
  // header of its object one by one too (node's "progressive" path), where otherwise it writes
  // the object as it is.
  const headers =
    body !== null && response.headers['Content-Length'] === undefined && req.method !== 'HEAD'
      ? withFields(response.headers, {
          'Content-Length': String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength),
        })
      : response.headers;
  res.writeHead(response.status, headers);
  res.end(body ?? undefined);
}

/** What frameworks (Express, Fastify, body parsers) add to a Node request. */
type FrameworkRequest = IncomingMessage & { originalUrl?: string; rawBody?: unknown; body?: unknown };

/**
 * The body: the raw bytes a body parser kept (`req.rawBody`), else the stream when nothing has read
 * it, else the value a body parser left in `req.body` (the core restores it where that is faithful).
 */
async function bodyOf(req: FrameworkRequest): Promise<{
  body?: Uint8Array | string | null;
  parsedBody?: unknown;
  readBody?: () => Promise<Uint8Array | null>;
  bodyPending?: () => boolean;
}> {
  if (typeof req.rawBody === 'string' || req.rawBody instanceof Uint8Array) return { body: req.rawBody };
  if (req.readableEnded && req.body !== undefined) return { parsedBody: req.body };
  // Iterating a stream costs even when it is empty; most requests (GETs) announce no body.
  if (!announcesBody(req.headers)) return { body: null };
  // Refused unread (413): the connection then closes, lingering while the client still sends.
  if (declaresOversizedBody(req.headers)) {
    lingerOnClose(req.socket);
    return { body: null };
  }
  // Read only once the request's headers admit it (the core calls it), and briefly.
  return {
    readBody: () => readStreamCapped(req, maxBodyBytes, { ms: bodyTimeoutMs, error: bodyTooSlow }),
    bodyPending: () => !req.complete,
  };
}

/**
 * Writes a streamed body until it ends or the client goes away, then stops the stream. The next
 * event is read only once the last has left for the socket: a client that stops reading holds
 * its stream, not a growing queue of events in the server's memory (it grew by each event's
 * size for as long as the client stayed connected).
 */
async function pipeStream(stream: AsyncIterable<string>, res: ServerResponse): Promise<void> {
  const iterator = stream[Symbol.asyncIterator]();
  res.on('close', () => void iterator.return?.());
  res.flushHeaders();
  for (;;) {
    const next = await iterator.next();
    if (next.done || res.destroyed) break;
    if (!res.write(next.value)) await drainedOrClosed(res);
  }
  await iterator.return?.();
  res.end();
}

/** Resolves once `res` can take more ('drain'), or once it closed. */
function drainedOrClosed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

export {
  type NodeWebhookSenderOptions,
  nodeWebhookSender,
  type ResolvedAddress,
  type Resolver,
} from './webhook-sender.js';

import { withFields } from '../core/host.js';
