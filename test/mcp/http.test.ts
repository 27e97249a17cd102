import type { Server } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryStorage } from '../../src/adapters/memory/index.js';
import { createTracker, type Storage, type Tracker } from '../../src/core/index.js';
import { defaultToolsets, mcpEndpoint, toolDefinitions } from '../../src/mcp/index.js';
import { type Host, hosts, listen } from '../http/harness.js';
import { mcpScenarios, type ScenarioFixture } from './scenarios.js';
import {
  initializeRequest,
  type McpWorld,
  otherProcess,
  type SharedDatabase,
  seedMcpWorld,
  sharedDatabases,
  type ToolAnswer,
} from './support.js';

/** The Node host at the root, the Hono host under a base path: /mcp moves with it. */
const mounts: Record<Host, { basePath: string; mcp: string }> = {
  node: { basePath: '/api/v1', mcp: '/mcp' },
  hono: { basePath: '/tracker/api/v1', mcp: '/tracker/mcp' },
};

interface Served {
  tracker: Tracker;
  server: Server;
  url: string;
  close(): Promise<void>;
}

async function serve(
  host: Host,
  storage: Storage,
  options: { rateLimit?: { limit: number } } = {},
): Promise<Served> {
  const tracker = createTracker({
    storage,
    basePath: mounts[host].basePath,
    mcp: mcpEndpoint({ pollMs: 100 }),
    ...(options.rateLimit ? { rateLimit: { limit: options.rateLimit.limit, windowMs: 60_000 } } : {}),
    onError: () => {},
  });
  const { server, port } = await listen(host, tracker);
  return {
    tracker,
    server,
    url: `http://127.0.0.1:${port}${mounts[host].mcp}`,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await tracker.close();
    },
  };
}

/** Connects the SDK's Client; `toolsets` goes in the URL's `?toolsets=`, as a client's configuration puts it. */
async function connect(url: string, token: string, toolsets?: string): Promise<Client> {
  const client = new Client({ name: 'outcome-tracker-test', version: '1.0.0' });
  const at = new URL(url);
  if (toolsets) at.searchParams.set('toolsets', toolsets);
  const transport = new StreamableHTTPClientTransport(at, {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return client;
}

for (const database of sharedDatabases) {
  for (const host of hosts) {
    describe(`MCP over Streamable HTTP through the ${host} host, on ${database.name}`, () => {
      let shared: SharedDatabase;
      let served: Served;
      let other: Tracker;
      let world: McpWorld;
      beforeAll(async () => {
        shared = database.make();
        served = await serve(host, shared.open());
        world = await seedMcpWorld(served.tracker, served.tracker.storage);
        other = otherProcess(shared);
      });
      afterAll(async () => {
        await served?.close();
        await other?.close();
        await shared?.destroy();
      });

      mcpScenarios(
        (): ScenarioFixture => ({
          world,
          other,
          connect: (token, toolsets) => connect(served.url, token, toolsets),
          revoke: async (tokenId) => {
            await other.storage.transaction((tx) => tx.tokens.revoke(tokenId, new Date().toISOString()));
          },
        }),
      );
    });
  }
}

for (const host of hosts) {
  describe(`the /mcp endpoint through the ${host} host`, () => {
    let served: Served;
    let world: McpWorld;
    beforeAll(async () => {
      served = await serve(host, memoryStorage());
      world = await seedMcpWorld(served.tracker, served.tracker.storage);
    });
    afterAll(() => served?.close());

    it('refuses a request without a valid token with 401 and WWW-Authenticate', async () => {
      const response = await fetch(served.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(await response.json()).toMatchObject({ error: 'unauthorized' });
      await expect(connect(served.url, 'cn_notARealTokenButWellFormed0123456789')).rejects.toThrow(/401/);
    });

    it('replays a create the transport sends again, with the key derived from the MCP request', async () => {
      const rpc = async (session: string | null, message: unknown) => {
        const response = await fetch(served.url, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${world.admin}`,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': '2025-06-18',
            ...(session ? { 'mcp-session-id': session } : {}),
          },
          body: JSON.stringify(message),
        });
        const text = await response.text();
        const data = text.split('\n').find((line) => line.startsWith('data: {'));
        return { response, message: data ? JSON.parse(data.slice(6)) : text ? JSON.parse(text) : null };
      };
      const init = await rpc(null, initializeRequest);
      const session = init.response.headers.get('mcp-session-id');
      expect(session).toBeTruthy();
      await rpc(session, { jsonrpc: '2.0', method: 'notifications/initialized' });
      const create = {
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'create_issue', arguments: { projectId: world.projectId, title: 'Sent twice' } },
      };
      const first = await rpc(session, create);
      const again = await rpc(session, create);
      expect(first.message.result.isError).toBeFalsy();
      expect(again.message.result.structuredContent.id).toBe(first.message.result.structuredContent.id);
      expect(again.message.result._meta['outcome-tracker'].replayed).toBe(true);
      // Another request (another id) with the same arguments is another create.
      const other = await rpc(session, { ...create, id: 8 });
      expect(other.message.result.structuredContent.id).not.toBe(first.message.result.structuredContent.id);
    });

    it('searches across families, reads signals since a sequence, and lists resources', async () => {
      const client = await connect(served.url, world.admin, 'default,admin');
      try {
        const outcome = await client.callTool({
          name: 'create_outcome',
          arguments: { projectId: world.projectId, title: 'Faster checkout' },
        });
        await client.callTool({
          name: 'create_issue',
          arguments: { projectId: world.projectId, title: 'Checkout button hidden' },
        });
        const found = (await client.callTool({ name: 'search', arguments: { q: 'checkout' } })) as ToolAnswer;
        expect(found.structuredContent.results.outcomes.total).toBe(1);
        expect(found.structuredContent.results.issues.data[0].title).toBe('Checkout button hidden');

        const since = (await client.callTool({
          name: 'signals_since',
          arguments: { after: 0, limit: 200 },
        })) as ToolAnswer;
        const events = since.structuredContent.data as { sequence: number; type: string }[];
        expect(events.map((event) => event.type)).toContain('outcome.created');
        expect(since.structuredContent.nextAfter).toBe(events.at(-1)?.sequence);
        const none = (await client.callTool({
          name: 'signals_since',
          arguments: { after: since.structuredContent.nextAfter },
        })) as ToolAnswer;
        expect(none.structuredContent).toMatchObject({
          data: [],
          nextAfter: since.structuredContent.nextAfter,
        });

        const templates = await client.listResourceTemplates();
        expect(templates.resourceTemplates.map((t) => t.uriTemplate)).toEqual([
          'tracker://issues/{key}',
          'tracker://outcomes/{id}',
          'tracker://decisions/{id}',
        ]);
        const uris: string[] = [];
        let cursor: string | undefined;
        do {
          const page = await client.listResources(cursor ? { cursor } : {});
          uris.push(...page.resources.map((resource) => resource.uri));
          cursor = page.nextCursor;
        } while (cursor);
        expect(uris).toContain(`tracker://outcomes/${(outcome.structuredContent as { id: string }).id}`);
        expect(uris.some((uri) => /^tracker:\/\/issues\/APO-\d+$/.test(uri))).toBe(true);
        await expect(client.readResource({ uri: 'tracker://issues/APO-999999' })).rejects.toThrow(
          /not_found/,
        );
      } finally {
        await client.close();
      }
    });

    it('opens a session with the toolsets of ?toolsets= or of the X-MCP-Toolsets header', async () => {
      const names = async (client: Client) => (await client.listTools()).tools.map((tool) => tool.name);
      const byQuery = await connect(served.url, world.admin, 'comments');
      const byHeader = new Client({ name: 'outcome-tracker-test', version: '1.0.0' });
      await byHeader.connect(
        new StreamableHTTPClientTransport(new URL(served.url), {
          requestInit: {
            headers: { authorization: `Bearer ${world.admin}`, 'x-mcp-toolsets': 'default,admin' },
          },
        }),
      );
      const byDefault = await connect(served.url, world.admin);
      try {
        expect((await names(byQuery)).sort()).toEqual(
          ['create_comment', 'delete_comment', 'get_comment', 'list_comments', 'update_comment'].sort(),
        );
        expect(await names(byHeader)).toEqual(expect.arrayContaining(['create_issue', 'signals_since']));
        expect((await names(byDefault)).sort()).toEqual(
          toolDefinitions()
            .filter((tool) => defaultToolsets.includes(tool.toolset))
            .map((tool) => tool.name)
            .sort(),
        );
      } finally {
        await Promise.all([byQuery.close(), byHeader.close(), byDefault.close()]);
      }
    });

    it('refuses a session naming an unknown toolset with 400, listing the valid ones', async () => {
      const response = await fetch(`${served.url}?toolsets=issues,tickets`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${world.admin}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify(initializeRequest),
      });
      expect(response.status).toBe(400);
      const body = (await response.json()) as { error: { code: number; message: string } };
      expect(body.error.code).toBe(-32602);
      expect(body.error.message).toMatch(
        /^unknown toolset "tickets"; the toolsets are: all, default \(search, /,
      );
    });

    it('keeps a session to the token that opened it', async () => {
      const client = await connect(served.url, world.admin);
      const session = (client.transport as StreamableHTTPClientTransport).sessionId;
      const response = await fetch(served.url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${world.read}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-session-id': String(session),
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(response.status).toBe(404);
      await client.close();
    });

    it('rate limits /mcp requests like the API', async () => {
      const limited = await serve(host, memoryStorage(), { rateLimit: { limit: 3 } });
      const { read } = await seedMcpWorld(limited.tracker, limited.tracker.storage);
      let refused: { status: number; headers: Headers; body: unknown } | null = null;
      for (let i = 0; i < 20 && refused === null; i++) {
        const response = await fetch(limited.url, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${read}`,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
        });
        if (response.status === 429)
          refused = { status: 429, headers: response.headers, body: await response.json() };
        else {
          expect(response.headers.get('x-ratelimit-limit')).toBe('3');
          await response.body?.cancel();
        }
      }
      await limited.close();
      expect(refused?.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(refused?.body).toMatchObject({ error: 'rate_limited' });
    });
  });
}
