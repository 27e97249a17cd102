import { beforeAll, describe, expect, it } from 'vitest';
import { installedWithoutPeers } from './installed.js';
import { assertBuilt, runCli } from './process.js';

beforeAll(assertBuilt);

describe('the installed CLI on PostgreSQL without pg', () => {
  it('says what to install instead of Node\'s "Cannot find package"', async () => {
    // Without pg anywhere up the tree.
    const { app, bin } = await installedWithoutPeers();
    for (const args of [
      ['serve', '--port', '0'],
      ['tokens', 'list', '--workspace', 'acme'],
    ]) {
      const result = await runCli([...args, '--db', 'postgres://postgres@127.0.0.1:5432/test'], {
        cwd: app,
        bin,
      });
      expect(result.stderr).toBe(
        `outcome-tracker ${args.slice(0, -2).join(' ')}: a postgres:// database needs the optional package pg: npm install pg\n`,
      );
      expect(result.code).toBe(1);
    }
  });
});
