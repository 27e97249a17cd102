import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { assertBuilt, startServeJson, tempDir } from '../cli/process.js';

describe('outcome-tracker serve with MCP', () => {
  for (const [how, args, env] of [
    ['--mcp', ['--mcp', '--server', 'hono', '--base-path', '/tracker/api/v1'], {}],
    ['OUTCOME_TRACKER_MCP=1', [], { OUTCOME_TRACKER_MCP: '1' }],
  ] as const) {
    it(`serves /mcp with the API tokens when asked by ${how}`, async () => {
      assertBuilt();
      const served = await startServeJson(['--db', `${tempDir()}/tracker.db`, ...args], { env });
      try {
        const { mcpUrl, init } = served.startup as typeof served.startup & { mcpUrl: string | null };
        expect(mcpUrl).toMatch(args.length > 0 ? /\/tracker\/mcp$/ : /\/mcp$/);
        const client = new Client({ name: 'outcome-tracker-test', version: '1.0.0' });
        await client.connect(
          new StreamableHTTPClientTransport(new URL(String(mcpUrl)), {
            requestInit: { headers: { authorization: `Bearer ${init?.token}` } },
          }),
        );
        const created = await client.callTool({ name: 'create_project', arguments: { name: 'Served' } });
        expect(created.isError).toBeFalsy();
        expect(created.structuredContent).toMatchObject({ name: 'Served', version: 1 });
        await client.close();
      } finally {
        await served.stop();
      }
    });
  }

  it('serves the toolsets of --toolsets to a session that names none', async () => {
    assertBuilt();
    const served = await startServeJson([
      '--db',
      `${tempDir()}/tracker.db`,
      '--mcp',
      '--toolsets',
      'comments',
    ]);
    try {
      const { mcpUrl, init } = served.startup as typeof served.startup & { mcpUrl: string };
      const client = new Client({ name: 'outcome-tracker-test', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(mcpUrl), {
          requestInit: { headers: { authorization: `Bearer ${init?.token}` } },
        }),
      );
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toContain('create_comment');
      expect(names).not.toContain('create_issue');
      await client.close();
    } finally {
      await served.stop();
    }
  });

  it('does not serve /mcp unless asked', async () => {
    assertBuilt();
    const served = await startServeJson(['--db', `${tempDir()}/tracker.db`]);
    try {
      const { url, init } = served.startup;
      expect(served.startup).not.toHaveProperty('mcpUrl');
      const response = await fetch(`${url}/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${init?.token}`, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(response.status).toBe(404);
    } finally {
      await served.stop();
    }
  });
});
