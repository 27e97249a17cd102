import { randomUUID } from 'node:crypto';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { McpEndpoint, McpEndpointFactory, McpHttpRequest } from '../core/mcp-endpoint.js';
import type { TrackerResponse } from '../core/pipeline/request.js';
import type { Tracker } from '../core/tracker.js';
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
   * The toolsets of a session that names none: `'issues,comments'`, `'all'`… (default: the
   * default toolsets). A session names its own with `?toolsets=` or an X-MCP-Toolsets header.
   */
  toolsets?: string | readonly string[];
  onError?: (error: unknown) => void;
}

interface Session {
  id: string;
  tokenId: string;
  transport: WebStandardStreamableHTTPServerTransport;
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
    const transport = new WebStandardStreamableHTTPServerTransport({
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

  return {
    async handle(request) {
      const sessionId = request.headers['mcp-session-id'];
      if (sessionId !== undefined) {
        const session = sessions.get(sessionId);
        // Another token's session is not found either: a session acts only as its own token.
        if (!session || session.tokenId !== request.tokenId)
          return jsonRpcError(404, -32001, 'Session not found');
        session.lastUsed = tracker.clock.now();
        return fromWebResponse(await session.transport.handleRequest(toWebRequest(request)));
      }
      if (request.method !== 'POST') {
        return jsonRpcError(400, -32000, 'Bad Request: Mcp-Session-Id header is required');
      }
      // Chosen as the session opens, and kept for its life.
      const toolsets = toolsetsOfRequest(request, options.toolsets);
      if (toolsets instanceof Error) return jsonRpcError(400, -32602, toolsets.message);
      const opened = await open(request, toolsets);
      const response = await opened.transport.handleRequest(toWebRequest(request));
      // Anything but an initialize opened no session: nothing of it is kept.
      if (!opened.initialized()) await opened.transport.close().catch(() => {});
      return fromWebResponse(response);
    },
    async close() {
      await Promise.all([...sessions.values()].map(end));
    },
  };
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

async function fromWebResponse(response: Response): Promise<TrackerResponse> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[canonical(name)] = value;
  });
  const streamed = headers['Content-Type']?.startsWith('text/event-stream') && response.body !== null;
  if (streamed && response.body)
    return { status: response.status, headers, body: null, stream: textOf(response.body) };
  const text = await response.text();
  return { status: response.status, headers, body: text === '' ? null : text };
}

/** An event stream's text as it comes; the reader's `return()` (the client left) cancels it. */
async function* textOf(body: ReadableStream<Uint8Array>): AsyncIterable<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield decoder.decode(value, { stream: true });
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}
