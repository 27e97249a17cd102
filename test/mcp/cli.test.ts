import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultToolsets, toolsetNames } from '../../src/mcp/index.js';
import { installedWithoutPeers } from '../cli/installed.js';
import { assertBuilt, runCli, tempDir } from '../cli/process.js';

beforeAll(assertBuilt);

const sdkMissing = (what: string) =>
  `${what} needs the optional package @modelcontextprotocol/sdk: npm install @modelcontextprotocol/sdk`;

describe('the installed CLI without the MCP SDK', () => {
  it('says what to install for `mcp` and for `serve --mcp`, before serving anything', async () => {
    const { app, bin } = await installedWithoutPeers();
    const mcp = await runCli(['mcp', '--token', 'cn_x', '--db', join(app, 'tracker.db')], { cwd: app, bin });
    expect(mcp.stderr).toBe(`outcome-tracker mcp: ${sdkMissing('the mcp command')}\n`);
    expect(mcp.code).toBe(1);

    const serve = await runCli(['serve', '--mcp', '--port', '0', '--db', join(app, 'served.db')], {
      cwd: app,
      bin,
    });
    expect(serve.stderr).toBe(`outcome-tracker serve: ${sdkMissing('--mcp')}\n`);
    expect(serve.code).toBe(1);
    // Refused before the database was opened: nothing was made.
    expect(existsSync(join(app, 'served.db'))).toBe(false);
  });
});

describe('outcome-tracker mcp', () => {
  it('without a token names the flag and the environment variable, and how to make one', async () => {
    const result = await runCli(['mcp', '--db', join(tempDir(), 'tracker.db')], {
      env: { OUTCOME_TRACKER_TOKEN: undefined },
    });
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(
      'outcome-tracker mcp: missing required flag --token (or set OUTCOME_TRACKER_TOKEN): the API token the tools act as (make one with `outcome-tracker tokens create`)',
    );
  });

  it('refuses an unknown toolset as a usage error listing the valid ones', async () => {
    const valid = `all, default (${defaultToolsets.join(', ')}), ${toolsetNames()
      .filter((name) => !defaultToolsets.includes(name))
      .join(', ')}`;
    for (const [args, env, label] of [
      [['--toolsets', 'issues,tickets'], {}, '--toolsets'],
      [[], { OUTCOME_TRACKER_TOOLSETS: 'tickets' }, 'OUTCOME_TRACKER_TOOLSETS=tickets'],
    ] as const) {
      const result = await runCli(['mcp', '--token', 'cn_x', '--db', join(tempDir(), 't.db'), ...args], {
        env: { ...env },
      });
      expect(result.code).toBe(2);
      expect(result.stderr.split('\n')[0]).toBe(
        `outcome-tracker mcp: ${label}: unknown toolset "tickets"; the toolsets are: ${valid}`,
      );
    }
  });
});

describe('outcome-tracker serve --toolsets', () => {
  it('is refused without --mcp, whose tools it chooses', async () => {
    const result = await runCli([
      'serve',
      '--toolsets',
      'issues',
      '--port',
      '0',
      '--db',
      join(tempDir(), 't.db'),
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(
      'outcome-tracker serve: --toolsets: chooses the tools of /mcp: give --mcp too',
    );
  });
});
