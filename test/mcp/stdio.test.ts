import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tracker } from '../../src/core/index.js';
import { defaultToolsets, toolDefinitions } from '../../src/mcp/index.js';
import { assertBuilt, cliPath } from '../cli/process.js';
import { mcpScenarios, type ScenarioFixture } from './scenarios.js';
import {
  type McpWorld,
  otherProcess,
  type SharedDatabase,
  seedMcpWorld,
  sharedDatabases,
} from './support.js';

/** Our environment without the variables the CLI reads, plus `extra`. */
function childEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !name.startsWith('OUTCOME_TRACKER_') && name !== 'DATABASE_URL')
      env[name] = value;
  }
  return { ...env, ...extra };
}

/** Starts `outcome-tracker mcp` (the built CLI) and connects the SDK's Client to it over stdio. */
async function spawnClient(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cliPath, 'mcp', ...args],
    env: childEnv(env),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: 'outcome-tracker-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

for (const database of sharedDatabases) {
  describe(`outcome-tracker mcp over stdio (the built CLI), on ${database.name}`, () => {
    let shared: SharedDatabase;
    let other: Tracker;
    let world: McpWorld;
    beforeAll(async () => {
      assertBuilt();
      shared = database.make();
      // This test process is the other process: it seeds the database and changes it.
      other = otherProcess(shared);
      world = await seedMcpWorld(other, other.storage);
    });
    afterAll(async () => {
      await other?.close();
      await shared?.destroy();
    });

    mcpScenarios(
      (): ScenarioFixture => ({
        world,
        other,
        connect: async (token, toolsets) =>
          (
            await spawnClient([
              '--db',
              shared.target,
              '--token',
              token,
              ...(toolsets ? ['--toolsets', toolsets] : []),
            ])
          ).client,
        revoke: async (tokenId) => {
          await other.storage.transaction((tx) => tx.tokens.revoke(tokenId, new Date().toISOString()));
        },
      }),
    );

    it('reads the token from OUTCOME_TRACKER_TOKEN, and serves the default toolsets', async () => {
      const { client } = await spawnClient(['--db', shared.target], { OUTCOME_TRACKER_TOKEN: world.read });
      try {
        const tools = (await client.listTools()).tools;
        // A read token: the read tools of the default toolsets.
        expect(tools.map((tool) => tool.name).sort()).toEqual(
          toolDefinitions()
            .filter((tool) => defaultToolsets.includes(tool.toolset) && tool.annotations.readOnlyHint)
            .map((tool) => tool.name)
            .sort(),
        );
      } finally {
        await client.close();
      }
    });

    it('refuses a bad token before serving anything', async () => {
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [cliPath, 'mcp', '--db', shared.target, '--token', 'cn_0123456789abcdefghijklmnopqrstuvwxyz'],
        env: childEnv({}),
        stderr: 'pipe',
      });
      let stderr = '';
      transport.stderr?.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      const exited = new Promise<void>((resolve) => {
        transport.onclose = () => resolve();
      });
      const client = new Client({ name: 'outcome-tracker-test', version: '1.0.0' });
      await expect(client.connect(transport)).rejects.toThrow();
      await exited;
      expect(stderr).toMatch(/the token is refused: Unknown API token/);
    });
  });
}
