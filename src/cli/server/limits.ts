import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { ApiError } from '../../core/errors.js';
import { admitConnectionsFairly } from './fair-connections.js';

/** How long a client may take and how many may connect at once (`serve` flags, in ms and a count). */
export interface ServerLimits {
  /** Time to receive a request's headers (slow-header clients are cut off). */
  headersTimeoutMs: number;
  /** Time to receive a whole request, headers and body. */
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection stays open between requests. */
  keepAliveTimeoutMs: number;
  /**
   * Open connections at most; when all are open, a connection from an address holding fewer than
   * the busiest one makes room by closing one of its connections not being answered, else it is
   * closed on arrival (admitConnectionsFairly). Event streams each hold one.
   */
  maxConnections: number;
  /**
   * Open connections one client address may hold at most; more from it are closed on arrival, so
   * one client cannot take all `maxConnections` (0: no bound, e.g. behind a proxy, where every
   * connection comes from the proxy's address).
   */
  maxConnectionsPerAddress: number;
  /**
   * How long an answer may wait with none of it taken by the client: a connection whose unsent
   * bytes have not moved for this long is closed (0: never).
   */
  sendTimeoutMs: number;
}

export const defaultServerLimits: ServerLimits = {
  headersTimeoutMs: 20_000,
  requestTimeoutMs: 60_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 1_024,
  maxConnectionsPerAddress: 256,
  sendTimeoutMs: 30_000,
};

/**
 * How often Node checks the timeouts above (its default is 30 s, far coarser than they are).
 * Only settable when the server is created.
 */
export const connectionsCheckingIntervalMs = (limits: ServerLimits): number =>
  Math.max(250, Math.min(1_000, Math.floor(limits.headersTimeoutMs / 4)));

/** Applies the limits, and answers what Node refuses before the app sees it (see clientErrorReply). */
export function applyServerLimits(server: Server, limits: ServerLimits): void {
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs;
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  // Not Node's own `maxConnections`, which closes a connection before anything can make room.
  admitConnectionsFairly(server, limits);
  if (limits.sendTimeoutMs > 0) closeStalledSends(server, limits.sendTimeoutMs);
  server.on('clientError', answerClientError);
  // Node hands CONNECT (a tunnel request) to this event, not to the app, and without a listener
  // closes the connection unanswered.
  server.on('connect', (_request: unknown, socket: Duplex) => answerRefused(socket, connectRefused()));
  refuseMissingHost(server);
}

/**
 * Closes connections whose answer waits unsent: a client that stops reading an answer (a page of
 * 10 MB, a 3.5 MB script, an event stream) held its connection, and the answer's memory, for as
 * long as it kept the connection open: Node's timeouts cover receiving a request, not sending
 * its answer. Once a second, each connection with bytes waiting to be sent is looked at; one whose
 * count of bytes sent has not grown for `timeoutMs` is destroyed. A connection that is idle, or
 * whose answer is still being made, has nothing waiting and is left alone; a slow reader that
 * takes some of its answer now and then is too.
 */
function closeStalledSends(server: Server, timeoutMs: number): void {
  /** Per connection with bytes waiting: bytes sent when last seen moving, and since when. */
  const waiting = new Map<Socket, { sent: number; since: number }>();
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => {
      sockets.delete(socket);
      waiting.delete(socket);
    });
  });
  const sweep = setInterval(
    () => {
      const now = performance.now();
      for (const socket of sockets) {
        if (socket.writableLength === 0) {
          waiting.delete(socket);
          continue;
        }
        const seen = waiting.get(socket);
        if (!seen || seen.sent !== socket.bytesWritten) {
          waiting.set(socket, { sent: socket.bytesWritten, since: now });
        } else if (now - seen.since >= timeoutMs) {
          socket.destroy();
        }
      }
    },
    Math.min(1_000, timeoutMs),
  );
  sweep.unref();
  server.once('close', () => clearInterval(sweep));
}

/**
 * Options the server must be created with for applyServerLimits: Node's own check of Host
 * (`requireHostHeader`) answers a bare 400 with no body, so the servers are made without it and
 * refuseMissingHost answers instead.
 */
export const serverCreationOptions = { requireHostHeader: false } as const;

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * An HTTP/1.1 request without Host must be refused with 400 (RFC 9112 §3.2): answered as the app
 * would (problem+json, X-Request-Id) before the server's own listeners, which never see it.
 */
function refuseMissingHost(server: Server): void {
  const listeners = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (req.httpVersion !== '1.1' || req.headers.host !== undefined) {
      for (const listener of listeners) listener.call(server, req, res);
      return;
    }
    const problem = new ApiError(
      400,
      'malformed_request',
      'An HTTP/1.1 request needs a Host header (RFC 9112, section 3.2).',
    );
    const { headers, body } = closingProblem(problem);
    res.writeHead(problem.status, headers);
    res.end(body);
  });
}

const connectRefused = (): ApiError =>
  new ApiError(405, 'method_not_allowed', 'CONNECT is not served here: this is an API server, not a proxy.');

/** The problem for a request Node's parser refused, by the parser's error code. */
function problemFor(code: string | undefined): ApiError {
  if (code === 'HPE_HEADER_OVERFLOW') {
    return new ApiError(431, 'headers_too_large', 'The request headers are larger than this server accepts.');
  }
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return new ApiError(408, 'request_timeout', 'The request was not received in time.');
  }
  return new ApiError(400, 'malformed_request', 'The request is not well-formed HTTP/1.1.');
}

const statusText: Record<number, string> = {
  400: 'Bad Request',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};

/**
 * Node answers a request it cannot parse (oversized headers, a malformed request line, a client
 * too slow to send its headers) before the app sees it, with a bare status line. This answers as
 * the app would: problem+json with an X-Request-Id, then closes the connection, whose remaining
 * bytes cannot be trusted to start a request.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  answerRefused(socket, problemFor(error.code));
}

/** `problem` as the app answers it (problem+json with an X-Request-Id), closing the connection. */
function closingProblem(problem: ApiError): { headers: Record<string, string>; body: string } {
  const body = JSON.stringify(problem.toProblem());
  const headers = {
    'Content-Type': 'application/problem+json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
    'X-Request-Id': randomUUID(),
    Connection: 'close',
  };
  return { headers, body };
}

/** Answers `problem` on a socket Node's server has handed over (closingProblem) and closes it. */
function answerRefused(socket: Duplex, problem: ApiError): void {
  const { headers, body } = closingProblem(problem);
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  socket.end(`HTTP/1.1 ${problem.status} ${statusText[problem.status]}\r\n${head.join('')}\r\n${body}`);
}
