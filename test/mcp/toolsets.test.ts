import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryStorage } from '../../src/adapters/memory/index.js';
import { createTracker, type Tracker } from '../../src/core/index.js';
import {
  createMcpServer,
  defaultToolsets,
  mcpEndpoint,
  parseToolsets,
  ToolsetError,
  toolDefinitions,
  toolsetNames,
} from '../../src/mcp/index.js';
import { fakeClock } from '../http/harness.js';
import { type McpWorld, seedMcpWorld, type ToolAnswer } from './support.js';

const packageVersion = JSON.parse(readFileSync('package.json', 'utf8')).version as string;

let tracker: Tracker;
let world: McpWorld;
const clients: Client[] = [];

beforeAll(async () => {
  tracker = createTracker({ storage: memoryStorage(), clock: fakeClock(), rateLimit: false });
  world = await seedMcpWorld(tracker, tracker.storage);
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await tracker.close();
});

/** The SDK's Client, connected in memory to a server acting as `token` with these toolsets. */
async function connect(token: string, toolsets?: string | string[]): Promise<Client> {
  const server = createMcpServer(tracker, { token, ...(toolsets !== undefined ? { toolsets } : {}) });
  const [serverEnd, clientEnd] = InMemoryTransport.createLinkedPair();
  await server.connect(serverEnd);
  const client = new Client({ name: 'toolsets-test', version: '1.0.0' });
  await client.connect(clientEnd);
  clients.push(client);
  return client;
}

/** The bytes of the `tools/list` answer as it goes over the wire: the JSON-RPC response. */
async function listedBytes(client: Client): Promise<{ count: number; bytes: number }> {
  const result = await client.listTools();
  const wire = JSON.stringify({ jsonrpc: '2.0', id: 1, result });
  return { count: result.tools.length, bytes: Buffer.byteLength(wire) };
}

const call = (client: Client, name: string, args: Record<string, unknown>) =>
  client.callTool({ name, arguments: args }) as Promise<ToolAnswer>;

describe('the default toolset', () => {
  it('is at most 25 tools, and its tools/list answer under 32 KB, for the token that sees the most', async () => {
    const { count, bytes } = await listedBytes(await connect(world.admin));
    expect(count).toBeLessThanOrEqual(25);
    expect(bytes).toBeLessThan(32 * 1024);
    // Every toolset together is still listed whole when asked for.
    const all = await listedBytes(await connect(world.admin, 'all'));
    expect(all.count).toBe(toolDefinitions().length);
    expect(all.bytes).toBeGreaterThan(bytes);
  });

  it('holds search and the projects, outcomes, issues and decisions', async () => {
    const names = (await (await connect(world.admin)).listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'search',
        'list_projects',
        'create_outcome',
        'transition_issue',
        'create_decision',
      ]),
    );
    expect(names).not.toContain('create_comment');
    expect(names).not.toContain('list_webhooks');
    expect(defaultToolsets).toEqual(['search', 'projects', 'outcomes', 'issues', 'decisions']);
  });
});

describe('toolsets', () => {
  it('enable their own tools only, alone or added to the default ones', async () => {
    const comments = (await (await connect(world.admin, 'comments')).listTools()).tools.map((t) => t.name);
    expect(comments.sort()).toEqual(
      ['create_comment', 'delete_comment', 'get_comment', 'list_comments', 'update_comment'].sort(),
    );
    const more = (await (await connect(world.admin, ['default', 'comments', 'admin'])).listTools()).tools;
    expect(more.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['create_issue', 'create_comment', 'list_members', 'signals_since']),
    );
    expect(more.map((tool) => tool.name)).not.toContain('create_time_entry');
  });

  it('are every toolset with `all`, the names taken from the tools', () => {
    const all = parseToolsets('all');
    expect(all).not.toBeInstanceOf(ToolsetError);
    expect([...(all as Set<string>)].sort()).toEqual(toolsetNames().sort());
    expect(toolsetNames()).toEqual(
      expect.arrayContaining([
        'search',
        'issues',
        'outcomes',
        'comments',
        'relations',
        'time_entries',
        'admin',
      ]),
    );
  });

  it('refuse an unknown name, or none, listing the valid ones', () => {
    const unknown = parseToolsets('issues,tickets');
    expect(unknown).toBeInstanceOf(ToolsetError);
    expect((unknown as Error).message).toBe(
      `unknown toolset "tickets"; the toolsets are: all, default (${defaultToolsets.join(', ')}), ${toolsetNames()
        .filter((name) => !defaultToolsets.includes(name))
        .join(', ')}`,
    );
    expect((parseToolsets(' , ') as Error).message).toMatch(
      /^no toolset named; the toolsets are: all, default/,
    );
    expect(() => createMcpServer(tracker, { token: world.admin, toolsets: 'tickets' })).toThrow(
      /unknown toolset "tickets"; the toolsets are: all, default/,
    );
    expect(() => mcpEndpoint({ toolsets: ['issues', 'tickets'] })).toThrow(/unknown toolset "tickets"/);
  });

  it('leave a tool of another toolset uncallable, saying which toolset it is in', async () => {
    const client = await connect(world.admin);
    await expect(call(client, 'create_comment', { body: 'x' })).rejects.toThrow(
      /create_comment is in the toolset "comments", which this connection does not enable/,
    );
  });

  it('are named in the instructions when off, so the agent can ask for them', async () => {
    const client = await connect(world.admin, 'default,comments');
    const instructions = client.getInstructions() ?? '';
    expect(instructions).toMatch(/Toolsets not enabled on this connection: .*relations/);
    expect(instructions).not.toMatch(/not enabled on this connection: .*comments/);
    expect((await connect(world.admin, 'all')).getInstructions()).not.toMatch(/not enabled/);
  });
});

describe('the views toolset', () => {
  it('lists, saves, reads, changes, runs and deletes saved views, outside the default toolsets', async () => {
    const client = await connect(world.admin, 'views');
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names.sort()).toEqual(
      ['create_view', 'delete_view', 'get_view', 'list_view_items', 'list_views', 'update_view'].sort(),
    );
    expect(defaultToolsets).not.toContain('views');

    const refused = await call(client, 'create_view', { name: 'Bugs', resource: 'issues', query: 'x:' });
    expect(refused.isError).toBe(true);
    const saved = await call(client, 'create_view', {
      name: 'Open',
      resource: 'issues',
      query: 'status:open',
    });
    expect(saved.structuredContent).toMatchObject({ name: 'Open', resource: 'issues', version: 1 });
    const id = saved.structuredContent.id as string;
    const ran = await call(client, 'list_view_items', { id, limit: 5 });
    expect(ran.structuredContent).toMatchObject({ data: expect.any(Array), total: expect.any(Number) });
    const renamed = await call(client, 'update_view', { id, name: 'Still open', version: 1 });
    expect(renamed.structuredContent).toMatchObject({ name: 'Still open', version: 2 });
    expect((await call(client, 'get_view', { id })).structuredContent.version).toBe(2);
    const listed = await call(client, 'list_views', { resource: 'issues' });
    expect(listed.structuredContent.data.map((view: { id: string }) => view.id)).toContain(id);
    expect((await call(client, 'delete_view', { id, version: 2 })).isError).toBeFalsy();
    expect((await call(client, 'get_view', { id })).isError).toBe(true);
  });
});

describe('keys or ids', () => {
  it('creates an issue in a project named by its key, and finds it by the key', async () => {
    const client = await connect(world.admin, 'default,comments,relations');
    const created = await call(client, 'create_issue', { projectId: 'APO', title: 'By key' });
    expect(created.isError).toBeFalsy();
    expect(created.structuredContent).toMatchObject({
      projectId: world.projectId,
      key: expect.stringMatching(/^APO-/),
    });
    const key = created.structuredContent.key as string;

    const project = await call(client, 'get_project', { id: 'APO' });
    expect(project.structuredContent).toMatchObject({ id: world.projectId, key: 'APO' });
    const listed = await call(client, 'list_issues', { projectId: `APO,${world.projectId}`, q: 'By key' });
    expect(listed.structuredContent.data.map((issue: { key: string }) => issue.key)).toEqual([key]);

    const child = await call(client, 'create_issue', { projectId: world.projectId, title: 'Child' });
    const related = await call(client, 'create_issue_relation', {
      id: child.structuredContent.key,
      type: 'child_of',
      issueId: key,
    });
    expect(related.isError).toBeFalsy();
    const children = await call(client, 'list_issues', { parentId: key });
    expect(children.structuredContent.data.map((issue: { key: string }) => issue.key)).toEqual([
      child.structuredContent.key,
    ]);

    const comment = await call(client, 'create_comment', { issueId: key, body: 'Seen' });
    expect(comment.structuredContent).toMatchObject({ issueId: created.structuredContent.id });
    const outcome = await call(client, 'create_outcome', { projectId: 'APO', title: 'By key too' });
    expect(outcome.structuredContent).toMatchObject({ projectId: world.projectId });
  });

  it('refuses a key that names nothing in the workspace, naming the argument', async () => {
    const client = await connect(world.admin, 'default,comments');
    const project = await call(client, 'create_issue', { projectId: 'NOPE', title: 'Nowhere' });
    expect(project.isError).toBe(true);
    expect(project.structuredContent).toMatchObject({
      status: 422,
      error: 'invalid_reference',
      field: 'projectId',
      detail: 'projectId NOPE does not name a project in this workspace.',
    });
    const issue = await call(client, 'create_comment', { issueId: 'APO-99999', body: 'x' });
    expect(issue.structuredContent).toMatchObject({ error: 'invalid_reference', field: 'issueId' });
    const own = await call(client, 'get_project', { id: 'NOPE' });
    expect(own.structuredContent).toMatchObject({ status: 404, error: 'not_found' });
  });

  it('gives ids to the API as they are', async () => {
    const client = await connect(world.admin);
    const created = await call(client, 'create_issue', { projectId: world.projectId, title: 'By id' });
    expect(created.structuredContent).toMatchObject({ projectId: world.projectId });
  });
});

describe('the server', () => {
  it("reports the package's version", async () => {
    const client = await connect(world.read);
    expect(client.getServerVersion()).toEqual({ name: 'outcome-tracker', version: packageVersion });
  });
});
