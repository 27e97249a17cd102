import { randomUUID } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { Route, Tracker } from '../core/extension-kit.js';
import { ApiError, authorize } from '../core/extension-kit.js';
import { type Api, trackerApi } from './api.js';
import { callRoute, derivedIdempotencyKey, problemResult, type ToolResult } from './call.js';
import { currentPrincipal } from './principal.js';
import { resolveKeys } from './references.js';
import {
  parseResourceUri,
  readResource,
  resourceFamilies,
  resourceTemplates,
  resourceUriOf,
  subscriptions,
} from './resources.js';
import { type ToolDefinition, toolDefinitions } from './tools.js';
import { parseToolsets, toolsetNames, toolsIn } from './toolsets.js';
import { serverInfo } from './version.js';

type Json = Record<string, unknown>;

export interface McpServerOptions {
  /** The API token every call acts as: its workspace, role and scope apply. */
  token: string;
  /** Names this connection in the idempotency keys derived for creates sent without one. */
  connectionId?: string;
  /** How often subscriptions look for changes when nothing wakes them (default 2000 ms). */
  pollMs?: number;
  /** The token stopped authenticating while resources were subscribed. */
  onRevoked?: (problem: ApiError) => void;
  /** The routes to make tools of (default: the API's). */
  routes?: readonly Route[];
  /**
   * The toolsets whose tools it serves: names (`['issues', 'comments']`, or `'issues,comments'`),
   * `all`, or `default` plus others. Default: the default toolsets (see toolsets.ts). An unknown
   * name throws, its message listing the valid ones.
   */
  toolsets?: string | readonly string[];
  onError?: (error: unknown) => void;
}

/** What the client may hand its model: how to work with the tools, and which toolsets are off. */
function instructionsFor(enabled: ReadonlySet<string>, all: readonly string[]): string {
  const off = all.filter((name) => !enabled.has(name));
  return [
    'Tools of an outcome tracker (projects, outcomes, issues, decisions), acting as your API token.',
    'Name a project by its key (APO) or id, an issue by its key (APO-12) or id.',
    'Creates take an `idempotencyKey`: reuse it when you retry. Updates need the `version` you read; on version_conflict the error carries the `current` resource to merge with.',
    'Errors are tool results with isError, an `error` code and a `detail`.',
    ...(off.length > 0
      ? [
          `Toolsets not enabled on this connection: ${off.join(', ')}; the user enables them with --toolsets (or ?toolsets= on /mcp).`,
        ]
      : []),
  ].join(' ');
}

/** A protocol error for an API problem met outside a tool call (a resource read, a listing). */
const protocolError = (error: ApiError) =>
  new McpError(
    error.status === 404 ? -32002 : ErrorCode.InvalidRequest,
    `${error.code}: ${error.detail}`,
    error.toProblem(),
  );

/**
 * An MCP server acting as one token: one tool per API operation (plus `search`), each call sent
 * through the tracker's own request pipeline; the workspace's issues, outcomes and decisions as
 * resources, with change notifications for those subscribed to.
 */
export function createMcpServer(tracker: Tracker, options: McpServerOptions): Server {
  const { token } = options;
  const connectionId = options.connectionId ?? randomUUID();
  const api = trackerApi(tracker, token);
  const every = toolDefinitions(options.routes);
  const enabled = parseToolsets(options.toolsets, every);
  if (enabled instanceof Error) throw enabled;
  const tools = toolsIn(enabled, every);
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const elsewhere = new Map(every.map((tool) => [tool.name, tool.toolset]));
  const server = new Server(serverInfo, {
    capabilities: { tools: {}, resources: { subscribe: true }, logging: {} },
    instructions: instructionsFor(enabled, toolsetNames(every)),
  });
  const onError = options.onError ?? ((error) => console.error('[outcome-tracker mcp]', error));

  const watched = subscriptions({
    tracker,
    token,
    pollMs: options.pollMs ?? 2000,
    notify: (uri) => server.sendResourceUpdated({ uri }),
    onRevoked: async (problem) => {
      // Said to the client before the connection's owner ends it: why its notifications stop.
      await server
        .sendLoggingMessage({
          level: 'warning',
          logger: 'outcome-tracker',
          data: `Subscriptions ended: ${problem.detail}`,
        })
        .catch(() => {});
      options.onRevoked?.(problem);
    },
    onError,
  });
  const previousOnClose = server.onclose;
  server.onclose = () => {
    watched.close();
    previousOnClose?.();
  };

  /** The tools the token may use now: its scope and role, read afresh. */
  const usable = async (): Promise<ToolDefinition[]> => {
    const principal = await currentPrincipal(tracker, token);
    if (principal instanceof ApiError) throw protocolError(principal);
    return tools.filter((tool) => authorize(principal, tool.access, tool.call?.method ?? 'GET') === null);
  };

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: (await usable()).map(({ name, title, description, inputSchema, annotations }) => ({
      name,
      title,
      description,
      inputSchema,
      annotations,
    })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = byName.get(request.params.name);
    if (!tool) {
      const toolset = elsewhere.get(request.params.name);
      throw new McpError(
        ErrorCode.InvalidParams,
        toolset
          ? `The tool ${request.params.name} is in the toolset "${toolset}", which this connection does not enable.`
          : `Unknown tool: ${request.params.name}`,
      );
    }
    const given = (request.params.arguments ?? {}) as Json;
    try {
      if (!tool.call) return await search(api, tracker, token, tool, given);
      const args = await resolveKeys(tracker, token, tool, given);
      if (args instanceof ApiError) return problemResult(args.toProblem() as unknown as Json);
      const result = await callRoute(api, { ...tool, call: tool.call }, args, () =>
        derivedIdempotencyKey(extra.sessionId ?? connectionId, extra.requestId, tool.name, given),
      );
      return tool.name === 'signals_since' ? withNextAfter(result, args) : result;
    } catch (error) {
      onError(error);
      return problemResult(
        new ApiError(
          500,
          'internal_error',
          'Something went wrong on our side.',
        ).toProblem() as unknown as Json,
      );
    }
  });

  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates,
  }));

  server.setRequestHandler(ListResourcesRequestSchema, async (request) =>
    listResources(api, request.params?.cursor),
  );

  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const read = await readResource(api, request.params.uri);
    if (read instanceof ApiError) throw protocolError(read);
    return { contents: [{ uri: read.uri, mimeType: 'application/json', text: JSON.stringify(read.json) }] };
  });

  server.setRequestHandler(SubscribeRequestSchema, async (request) => {
    const read = await readResource(api, request.params.uri);
    if (read instanceof ApiError) throw protocolError(read);
    const added = await watched.add(request.params.uri, String(read.json.id));
    if (added instanceof ApiError) throw protocolError(added);
    return {};
  });

  server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
    watched.remove(request.params.uri);
    return {};
  });

  return server;
}

/** `signals_since` also answers `nextAfter`: the sequence to pass as `after` next time. */
function withNextAfter(result: ToolResult, args: Json): ToolResult {
  const page = result.structuredContent as { data?: { sequence?: number }[] } | undefined;
  if (result.isError || !Array.isArray(page?.data)) return result;
  const last = page.data[page.data.length - 1]?.sequence;
  const nextAfter = typeof last === 'number' ? last : typeof args.after === 'number' ? args.after : null;
  const structured = { ...result.structuredContent, nextAfter };
  return {
    ...result,
    structuredContent: structured,
    content: [{ type: 'text', text: JSON.stringify(structured) }],
  };
}

/** `search`: `q` through each list that takes it and that the token may read. */
async function search(
  api: Api,
  tracker: Tracker,
  token: string,
  tool: ToolDefinition,
  args: Json,
): Promise<ToolResult> {
  const principal = await currentPrincipal(tracker, token);
  if (principal instanceof ApiError) return problemResult(principal.toProblem() as unknown as Json);
  const limit = typeof args.limit === 'number' ? args.limit : 10;
  const results: Json = {};
  for (const list of tool.searches ?? []) {
    if (authorize(principal, list.access, 'GET') !== null) continue;
    const query = new URLSearchParams({ q: String(args.q ?? ''), limit: String(limit) });
    const answer = await api({ method: 'GET', path: list.path, query });
    if (answer.status !== 200) return problemResult(answer.body as Json);
    const page = answer.body as { data: unknown[]; total: number };
    results[list.family] = { data: page.data, total: page.total };
  }
  const structured = { q: args.q, results };
  return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
}

/** `resources/list`: the newest items of each family, a page at a time. */
async function listResources(api: Api, cursor: string | undefined) {
  // The cursor names the family and that family's own list cursor.
  const [index, familyCursor] = cursor
    ? (JSON.parse(Buffer.from(cursor, 'base64url').toString()) as [number, string | null])
    : [0, null];
  const family = resourceFamilies[index];
  if (!family) throw new McpError(ErrorCode.InvalidParams, 'Unknown cursor.');
  const query = new URLSearchParams({ limit: '50', ...(familyCursor ? { cursor: familyCursor } : {}) });
  const answer = await api({ method: 'GET', path: `/${family}`, query });
  if (answer.status !== 200) {
    const problem = answer.body as { error?: string; detail?: string };
    throw new McpError(ErrorCode.InvalidRequest, `${problem.error}: ${problem.detail}`, problem);
  }
  const page = answer.body as {
    data: { id: string; key?: string; title?: string }[];
    nextCursor: string | null;
  };
  const next: [number, string | null] | null = page.nextCursor
    ? [index, page.nextCursor]
    : index + 1 < resourceFamilies.length
      ? [index + 1, null]
      : null;
  return {
    resources: page.data.map((item) => ({
      uri: resourceUriOf(family, item),
      name: `${family === 'issues' && item.key ? `${item.key} ` : ''}${item.title ?? item.id}`,
      mimeType: 'application/json',
    })),
    ...(next ? { nextCursor: Buffer.from(JSON.stringify(next)).toString('base64url') } : {}),
  };
}

export { parseResourceUri };
