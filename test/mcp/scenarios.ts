import { randomUUID } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { expect, it } from 'vitest';
import type { Tracker } from '../../src/core/index.js';
import { toolDefinitions } from '../../src/mcp/index.js';
import { apiCall, type McpWorld, resourceUpdates, type ToolAnswer } from './support.js';

/** What the scenarios need of a transport under test. */
export interface ScenarioFixture {
  world: McpWorld;
  /** Connects the SDK's own Client, acting as `token`, with the toolsets named (`all`…) or the default ones. */
  connect(token: string, toolsets?: string): Promise<Client>;
  /** A tracker on a connection of its own to the same database: another process's writes. */
  other: Tracker;
  /** Revokes a token (as `tokens revoke` would). */
  revoke(tokenId: string): Promise<void>;
}

const call = (client: Client, name: string, args: Record<string, unknown>) =>
  client.callTool({ name, arguments: args }) as Promise<ToolAnswer>;

let titles = 0;
const title = (what: string) => `${what} ${++titles}`;

/** The issue's scenario list, run over one transport and one database. */
export function mcpScenarios(fixture: () => ScenarioFixture): void {
  it('lists with `all` one tool per API operation, and a read token only the read tools', async () => {
    const f = fixture();
    const admin = await f.connect(f.world.admin, 'all');
    const read = await f.connect(f.world.read, 'all');
    try {
      const all = (await admin.listTools()).tools;
      expect(all.map((tool) => tool.name).sort()).toEqual(
        toolDefinitions()
          .map((tool) => tool.name)
          .sort(),
      );
      for (const tool of all) {
        expect(tool.annotations).toMatchObject({
          readOnlyHint: expect.any(Boolean),
          destructiveHint: expect.any(Boolean),
          idempotentHint: expect.any(Boolean),
        });
      }
      // A read token sees the reads, and the calls any token may make of its own (watching an
      // issue, marking its notifications read: their route's access is `read`).
      const readable = (await read.listTools()).tools;
      const anyToken = new Set(
        toolDefinitions()
          .filter((tool) => tool.access === 'read' || tool.annotations.readOnlyHint)
          .map((tool) => tool.name),
      );
      expect(readable.map((tool) => tool.name).sort()).toEqual(
        all
          .filter((tool) => anyToken.has(tool.name))
          .map((tool) => tool.name)
          .sort(),
      );
      for (const tool of all) if (tool.annotations?.readOnlyHint) expect(anyToken.has(tool.name)).toBe(true);
      expect(readable.map((tool) => tool.name)).toContain('get_issue');
      expect(readable.map((tool) => tool.name)).not.toContain('create_issue');
    } finally {
      await admin.close();
      await read.close();
    }
  });

  it('creates, gets, updates with the version, transitions and lists an issue', async () => {
    const f = fixture();
    const client = await f.connect(f.world.admin);
    try {
      const name = title('Login fails');
      // The project named by its key, as an agent reads it in issue keys.
      const created = await call(client, 'create_issue', {
        projectId: 'APO',
        title: name,
        idempotencyKey: randomUUID(),
      });
      expect(created.isError).toBeFalsy();
      const key = created.structuredContent.key;
      expect(created.structuredContent).toMatchObject({
        title: name,
        status: 'open',
        version: 1,
        projectId: f.world.projectId,
      });

      const got = await call(client, 'get_issue', { id: key });
      expect(got.structuredContent).toEqual(created.structuredContent);

      const updated = await call(client, 'update_issue', { id: key, severity: 'high', version: 1 });
      expect(updated.isError).toBeFalsy();
      expect(updated.structuredContent).toMatchObject({ severity: 'high', version: 2 });

      const moved = await call(client, 'transition_issue', { id: key, to: 'in_progress' });
      expect(moved.structuredContent).toMatchObject({ status: 'in_progress', version: 3 });

      const listed = await call(client, 'list_issues', { projectId: 'APO', status: 'in_progress' });
      expect(listed.structuredContent.data.map((issue: { key: string }) => issue.key)).toContain(key);

      // Through the API the database holds what the tools said.
      const stored = await apiCall(f.other, f.world.admin, 'GET', `/issues/${key}`);
      expect(stored.json).toEqual(moved.structuredContent);
    } finally {
      await client.close();
    }
  });

  it('answers a stale version with a tool error carrying the current resource and version', async () => {
    const f = fixture();
    const client = await f.connect(f.world.admin);
    try {
      const created = await call(client, 'create_issue', {
        projectId: f.world.projectId,
        title: title('Stale'),
      });
      const key = created.structuredContent.key;
      // Another agent changes it first.
      await apiCall(
        f.other,
        f.world.admin,
        'PATCH',
        `/issues/${key}`,
        { title: 'Renamed elsewhere' },
        { 'if-match': '"1"' },
      );
      const stale = await call(client, 'update_issue', { id: key, severity: 'low', version: 1 });
      expect(stale.isError).toBe(true);
      expect(stale.structuredContent).toMatchObject({
        status: 409,
        error: 'version_conflict',
        currentVersion: 2,
        current: { key, title: 'Renamed elsewhere', version: 2 },
      });
      // Merged and retried with the current version, it goes through.
      const retried = await call(client, 'update_issue', {
        id: key,
        severity: 'low',
        version: stale.structuredContent.currentVersion,
      });
      expect(retried.structuredContent).toMatchObject({
        title: 'Renamed elsewhere',
        severity: 'low',
        version: 3,
      });
    } finally {
      await client.close();
    }
  });

  it('refuses an update without a version, saying how to get it', async () => {
    const f = fixture();
    const client = await f.connect(f.world.admin);
    try {
      const created = await call(client, 'create_issue', {
        projectId: f.world.projectId,
        title: title('No version'),
      });
      const refused = await call(client, 'update_issue', { id: created.structuredContent.key, title: 'x' });
      expect(refused.isError).toBe(true);
      expect(refused.structuredContent).toMatchObject({ status: 428, error: 'precondition_required' });
      expect(refused.content[0].text).toMatch(/version/);
    } finally {
      await client.close();
    }
  });

  it('makes one issue of a create retried with the same key, and says the retry was a replay', async () => {
    const f = fixture();
    const client = await f.connect(f.world.admin);
    try {
      const args = { projectId: f.world.projectId, title: title('Retried'), idempotencyKey: randomUUID() };
      const first = await call(client, 'create_issue', args);
      const again = await call(client, 'create_issue', args);
      expect(again.isError).toBeFalsy();
      expect(again.structuredContent.id).toBe(first.structuredContent.id);
      expect(first._meta['outcome-tracker'].replayed).toBe(false);
      expect(again._meta['outcome-tracker'].replayed).toBe(true);
      expect(again.content[0].text).toMatch(/^Replayed/);
      const listed = await apiCall(
        f.other,
        f.world.admin,
        'GET',
        `/issues?q=${encodeURIComponent(args.title)}`,
      );
      expect(listed.json.total).toBe(1);
    } finally {
      await client.close();
    }
  });

  it('answers API errors as tool results with isError and the problem fields', async () => {
    const f = fixture();
    const client = await f.connect(f.world.read);
    try {
      const refused = await call(client, 'create_issue', {
        projectId: f.world.projectId,
        title: 'Read only',
      });
      expect(refused.isError).toBe(true);
      expect(refused.structuredContent).toMatchObject({
        status: 403,
        error: 'insufficient_scope',
        detail: expect.any(String),
      });
      const missing = await call(client, 'get_issue', { id: 'APO-999999' });
      expect(missing.structuredContent).toMatchObject({ status: 404, error: 'not_found' });
    } finally {
      await client.close();
    }
  });

  it('notifies a resource subscription when another process changes the issue', async () => {
    const f = fixture();
    const client = await f.connect(f.world.member.plain);
    try {
      const created = await call(client, 'create_issue', {
        projectId: f.world.projectId,
        title: title('Watched'),
      });
      const key = created.structuredContent.key;
      const uri = `tracker://issues/${key}`;
      const updates = resourceUpdates(client);
      await client.subscribeResource({ uri });
      const changed = await apiCall(f.other, f.world.admin, 'POST', `/issues/${key}/transition`, {
        to: 'blocked',
      });
      expect(changed.status).toBe(200);
      await updates.next(uri);
      const read = await client.readResource({ uri });
      expect(JSON.parse(String((read.contents[0] as { text?: string } | undefined)?.text))).toMatchObject({
        key,
        status: 'blocked',
      });
    } finally {
      await client.close();
    }
  });

  it('ends a subscription when its token is revoked', async () => {
    const f = fixture();
    const client = await f.connect(f.world.member.plain);
    const created = await call(client, 'create_issue', {
      projectId: f.world.projectId,
      title: title('Revoked'),
    });
    await client.subscribeResource({ uri: `tracker://issues/${created.structuredContent.key}` });
    const ended = new Promise<string>((resolve) => {
      client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) =>
        resolve(String(notification.params.data)),
      );
    });
    await f.revoke(f.world.member.id);
    // A change wakes the watcher, which authenticates the token again.
    await apiCall(
      f.other,
      f.world.admin,
      'PATCH',
      `/issues/${created.structuredContent.key}`,
      { title: 'After' },
      { 'if-match': '"1"' },
    );
    expect(await ended).toMatch(/^Subscriptions ended: .*revoked/);
    await client.close().catch(() => {});
  });
}
