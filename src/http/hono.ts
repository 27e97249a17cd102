import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Hono } from 'hono';
import {
  announcesBody,
  bodyTimeoutMs,
  bodyTooSlow,
  declaresOversizedBody,
  readCapped,
  readStreamCapped,
} from '../core/host.js';
import { ApiError, maxBodyBytes, type Tracker, type TrackerRequest } from '../core/index.js';
import { lingerOnClose } from './linger.js';
import { nodeRequestHeaders } from './node-headers.js';

/** Node's server puts the incoming request in Hono's env; other runtimes have no peer address here. */
type NodeBindings = {
  incoming?: IncomingMessage;
};

/**
 * The tracker as a Hono app. Mount it with `app.route('/api/v1', honoApp(tracker))`, or serve it
 * as it is: either way it answers the /api/v1 paths (and /healthz). Served as it is, it also answers the
 * admin pages (/sign-in, /{workspaceSlug}/admin/api-tokens).
 */
export function honoApp(tracker: Tracker): Hono<{ Bindings: NodeBindings }> {
  const app = new Hono<{ Bindings: NodeBindings }>();
  app.all('*', async (c) => {
    const incoming = c.env?.incoming;
    // Under Node the request is read straight from the IncomingMessage, as the Node host does:
    // touching `c.req.raw` would build a WHATWG Request (and its AbortController) per request.
    const { request, received, unread } = incoming?.headers
      ? fromIncoming(incoming)
      : await fromWebRequest(c.req.raw, c.env?.incoming?.socket?.remoteAddress);
    const response = await tracker.handle(request);
    const body = received();
    if (unread() || response.status === 413 || (body !== null && body.byteLength > maxBodyBytes)) {
      // The rest of an oversized body is still coming (or all of a body left unread, whatever the
      // answer: a 401 comes before the size is judged): never read it as the next request. With
      // `Connection: close` Node's server closes the connection once the answer is flushed, as for
      // the Node host. Destroying the socket at 'finish' instead closed it with the client still
      // sending, so the kernel reset the connection and the client could lose the 413.
      response.headers.Connection = 'close';
    }
    const answer = response.stream ? toReadable(response.stream) : response.body;
    return new Response(answer, { status: response.status, headers: response.headers });
  });
  return app;
}

/**
 * `@hono/node-server`'s `errorHandler`: a request it cannot turn into a `Request` (a backslash in
 * the target, a bad Host) was answered with an empty 400; this answers as the app does, with a
 * problem+json body and an X-Request-Id, and closes the connection. `serve --server hono` uses
 * it; pass it to `getRequestListener(app.fetch, { errorHandler: honoRequestError })`.
 */
export function honoRequestError(error: unknown): Response {
  const malformed = error instanceof Error && error.name === 'RequestError';
  const problem = malformed
    ? new ApiError(400, 'malformed_request', `The request is not well-formed: ${error.message}.`)
    : new ApiError(500, 'internal_error', 'Something went wrong on our side.');
  return new Response(JSON.stringify(problem.toProblem()), {
    status: problem.status,
    headers: {
      'Content-Type': 'application/problem+json; charset=utf-8',
      'X-Request-Id': randomUUID(),
      Connection: 'close',
    },
  });
}

/**
 * The core's request from Node's IncomingMessage (the full path, whatever the mount). Its body
 * is read only once the core admits the request by its headers; `received` is what was read,
 * `unread` whether some of the body was left unread (the connection must then close).
 */
function fromIncoming(incoming: IncomingMessage): {
  request: TrackerRequest;
  received: () => Uint8Array | null;
  unread: () => boolean;
} {
  const clientAddress = incoming.socket.remoteAddress ?? 'unknown';
  const secure = (incoming.socket as { encrypted?: boolean }).encrypted === true;
  // A body declared larger than allowed is refused unread (413), as by the Node host.
  const refusedUnread = declaresOversizedBody(incoming.headers);
  if (refusedUnread) lingerOnClose(incoming.socket);
  const hasBody = announcesBody(incoming.headers) && !refusedUnread;
  let body: Uint8Array | null = null;
  const request: TrackerRequest = {
    method: incoming.method ?? 'GET',
    path: incoming.url ?? '/',
    headers: nodeRequestHeaders(incoming),
    ...(hasBody
      ? {
          readBody: async () => {
            body = await readStreamCapped(incoming, maxBodyBytes, { ms: bodyTimeoutMs, error: bodyTooSlow });
            return body;
          },
          bodyPending: () => !incoming.complete,
        }
      : { body: null }),
    clientAddress,
    secure,
  };
  const unread = () => {
    if (refusedUnread) return true;
    if (!hasBody || incoming.readableEnded) return false;
    // Refused by its headers (401, 429) or too slow: close, lingering so the answer is read.
    lingerOnClose(incoming.socket);
    return true;
  };
  return { request, received: () => body, unread };
}

/** The core's request from a web-standards Request (runtimes other than Node). */
async function fromWebRequest(
  raw: Request,
  remoteAddress: string | undefined,
): Promise<{ request: TrackerRequest; received: () => Uint8Array | null; unread: () => false }> {
  const url = new URL(raw.url);
  const body = raw.body ? await readCapped(raw.body, maxBodyBytes) : null;
  const request: TrackerRequest = {
    method: raw.method,
    path: url.pathname + url.search,
    headers: Object.fromEntries(raw.headers),
    body,
    clientAddress: remoteAddress ?? 'unknown',
    secure: url.protocol === 'https:',
  };
  return { request, received: () => body, unread: () => false };
}

/** A web stream over a streamed body; cancelling it (the client left) stops the source. */
function toReadable(stream: AsyncIterable<string>): ReadableStream<Uint8Array> {
  const iterator = stream[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}
