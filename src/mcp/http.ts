import { randomUUID } from 'node:crypto';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type {
  McpEndpoint,
  McpEndpointFactory,
  McpHttpRequest,
  Tracker,
  TrackerResponse,
} from '../core/extension-kit.js';
import { InFlightTransport, requestIdsOf } from './in-flight.js';
import { createMcpServer } from './server.js';
import { parseToolsets, toolsetsOfRequest } from './toolsets.js';

export interface McpEndpointOptions {
  /** How often subscriptions look for changes when nothing wakes them (default 2000 ms). */
  pollMs?: number;
  /** Sessions one token may hold open; opening one more ends its least recently used (default 16). */
  sessionsPerToken?: number;
  /** A session unused this long is ended (default 30 minutes). */
  idleMs?: number;
  /**
   * A POST's requests not answered this long after it arrived are answered with a JSON-RPC
   * error, which ends its stream (default 60 s): a stream holds a connection, so none is open-ended.
   */
  answerWithinMs?: number;
  /**
   * The toolsets of a session that names none: `'issues,comments'`, `'all'`… (default: the
   * default toolsets). A session names its own with `?toolsets=` or an X-MCP-Toolsets header.
   */
  toolsets?: string | readonly string[];
  onError?: (error: unknown) => void;
}

interface Session {
  id: string;
  tokenId: string;
  transport: InFlightTransport;
  server: Server;
  lastUsed: number;
}

/**
 * The Streamable HTTP endpoint: `createTracker({ storage, mcp: mcpEndpoint() })` serves MCP at
 * /mcp on every host. Each session is an MCP server acting as the token that opened it; the
 * tracker has authenticated and rate limited each request before it gets here.
 */
export function mcpEndpoint(options: McpEndpointOptions = {}): McpEndpointFactory<Tracker> {
  // A misnamed toolset is the embedder's to fix: said now, not to each client that connects.
  const toolsets = parseToolsets(options.toolsets);
  if (toolsets instanceof Error) throw toolsets;
  return (tracker) => streamableEndpoint(tracker, options);
}

function streamableEndpoint(tracker: Tracker, options: McpEndpointOptions): McpEndpoint {
  const sessions = new Map<string, Session>();
  const perToken = options.sessionsPerToken ?? 16;
  const idleMs = options.idleMs ?? 30 * 60 * 1000;
  const answerWithinMs = options.answerWithinMs ?? 60_000;

  const end = async (session: Session) => {
    sessions.delete(session.id);
    await session.transport.close().catch(() => {});
  };

  /** Ends idle sessions, and the least recently used of the token's when it holds too many. */
  const prune = async (tokenId: string) => {
    const now = tracker.clock.now();
    const own: Session[] = [];
    for (const session of sessions.values()) {
      if (now - session.lastUsed > idleMs) await end(session);
      else if (session.tokenId === tokenId) own.push(session);
    }
    own.sort((a, b) => a.lastUsed - b.lastUsed);
    for (const session of own.slice(0, Math.max(0, own.length - perToken + 1))) await end(session);
  };

  const open = async (request: McpHttpRequest, toolsets: ReadonlySet<string>) => {
    await prune(request.tokenId);
    let session: Session | undefined;
    const transport = new InFlightTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        session = { id, tokenId: request.tokenId, transport, server, lastUsed: tracker.clock.now() };
        sessions.set(id, session);
      },
      onsessionclosed: (id) => {
        sessions.delete(id);
      },
    });
    const server = createMcpServer(tracker, {
      token: request.token,
      toolsets: [...toolsets],
      ...(options.pollMs !== undefined ? { pollMs: options.pollMs } : {}),
      // A revoked token's session ends: its open notification stream closes with it.
      onRevoked: () => {
        if (session) void end(session);
      },
      ...(options.onError ? { onError: options.onError } : {}),
    });
    transport.onclose = () => {
      if (session) sessions.delete(session.id);
    };
    await server.connect(transport);
    return { transport, initialized: () => session !== undefined };
  };

  /**
   * Hands a request to its session's transport. A POST's request ids must not be in flight on
   * the session; a POST with requests, or a GET (the session's notification stream), may answer
   * with a stream, so it takes one of the account's stream slots, as an API event stream does.
   */
  const answer = async (transport: InFlightTransport, request: McpHttpRequest) => {
    const parsed = request.method === 'POST' ? parseJson(request.body) : undefined;
    const ids = parsed === undefined ? [] : requestIdsOf(parsed.value);
    if (!transport.claim(ids)) {
      return jsonRpcError(
        409,
        -32600,
        'Invalid Request: a request with this id is in flight on this session; ids must be unique among requests not yet answered',
      );
    }
    let free: (() => void) | null = null;
    let response: Response;
    try {
      if (request.method === 'GET' || ids.length > 0) free = request.takeStreamSlot();
      response = await transport.handleRequest(
        toWebRequest(request),
        parsed === undefined ? undefined : { parsedBody: parsed.value },
      );
    } catch (error) {
      transport.release(ids);
      free?.();
      throw error;
    }
    const stream = streamOf(response);
    if (stream === null) {
      // Refused, or answered at once: nothing of it is in flight or holds a connection.
      transport.release(ids);
      free?.();
      return fromWebResponse(response, null);
    }
    const deadline =
      ids.length > 0
        ? setTimeout(
            () => void transport.abandon(ids, `Not answered within ${answerWithinMs / 1000} s`),
            answerWithinMs,
          )
        : undefined;
    const ended = () => {
      clearTimeout(deadline);
      free?.();
      // The client left before the answers: their handlers stop, and their ids are free again.
      void transport.abandon(ids, 'The client closed the stream');
    };
    return fromWebResponse(response, textOf(stream, ended));
  };

  return {
    async handle(request) {
      const sessionId = request.headers['mcp-session-id'];
      if (sessionId !== undefined) {
        const session = sessions.get(sessionId);
        // Another token's session is not found either: a session acts only as its own token.
        if (!session || session.tokenId !== request.tokenId)
          return jsonRpcError(404, -32001, 'Session not found');
        session.lastUsed = tracker.clock.now();
        return answer(session.transport, request);
      }
      if (request.method !== 'POST') {
        return jsonRpcError(400, -32000, 'Bad Request: Mcp-Session-Id header is required');
      }
      // Chosen as the session opens, and kept for its life.
      const toolsets = toolsetsOfRequest(request, options.toolsets);
      if (toolsets instanceof Error) return jsonRpcError(400, -32602, toolsets.message);
      const opened = await open(request, toolsets);
      const response = await answer(opened.transport, request);
      // Anything but an initialize opened no session: nothing of it is kept.
      if (!opened.initialized()) await opened.transport.close().catch(() => {});
      return response;
    },
    async close() {
      await Promise.all([...sessions.values()].map(end));
    },
  };
}

/** The body as JSON, for the transport to take as parsed; undefined when it is not JSON. */
function parseJson(body: Uint8Array | string | null): { value: unknown } | undefined {
  if (body === null) return undefined;
  try {
    return { value: JSON.parse(typeof body === 'string' ? body : new TextDecoder().decode(body)) };
  } catch {
    return undefined;
  }
}

function jsonRpcError(status: number, code: number, message: string): TrackerResponse {
  return {
    status,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }),
  };
}

function toWebRequest(request: McpHttpRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) headers.set(name, value);
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD' && request.body !== null;
  return new Request(`http://localhost${request.url}`, {
    method: request.method,
    headers,
    ...(hasBody ? { body: request.body as string | Uint8Array<ArrayBuffer> } : {}),
  });
}

/** `content-type` → `Content-Type`: the core speaks canonical header names. */
const canonical = (name: string) =>
  name.replace(/(^|-)([a-z])/g, (_whole, dash: string, letter: string) => dash + letter.toUpperCase());

/** The response's event stream, or null when it answered with a body of its own. */
function streamOf(response: Response): ReadableStream<Uint8Array> | null {
  const type = response.headers.get('content-type') ?? '';
  return type.startsWith('text/event-stream') ? response.body : null;
}

async function fromWebResponse(
  response: Response,
  stream: AsyncIterable<string> | null,
): Promise<TrackerResponse> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[canonical(name)] = value;
  });
  if (stream !== null) return { status: response.status, headers, body: null, stream };
  const text = await response.text();
  return { status: response.status, headers, body: text === '' ? null : text };
}

/**
 * An event stream's text as it comes; `return()` (the client left) cancels it. `ended` runs once,
 * however it ends, even when the stream is stopped before it is read at all.
 */
function textOf(body: ReadableStream<Uint8Array>, ended: () => void): AsyncIterable<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let over = false;
  const finish = async () => {
    if (over) return;
    over = true;
    ended();
    await reader.cancel().catch(() => {});
  };
  const iterator: AsyncIterator<string> = {
    async next() {
      try {
        const { done, value } = over ? { done: true, value: undefined } : await reader.read();
        if (!done) return { done: false, value: decoder.decode(value, { stream: true }) };
      } catch (error) {
        await finish();
        throw error;
      }
      await finish();
      return { done: true, value: undefined };
    },
    async return() {
      await finish();
      return { done: true, value: undefined };
    },
  };
  return { [Symbol.asyncIterator]: () => iterator };
}
