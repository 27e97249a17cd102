import { cpSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, runCli, tempDir } from './process.js';

beforeAll(assertBuilt);

describe('the installed CLI on PostgreSQL without pg', () => {
  it('says what to install instead of Node\'s "Cannot find package"', async () => {
    // The package as an app installs it without its optional peers: dist and package.json, its
    // dependencies beside it, and no pg anywhere up the tree (a temporary directory).
    const app = tempDir();
    const own = join(app, 'node_modules', 'outcome-tracker');
    mkdirSync(own, { recursive: true });
    cpSync(resolve('dist'), join(own, 'dist'), { recursive: true });
    cpSync(resolve('package.json'), join(own, 'package.json'));
    const { dependencies } = (await import('../../package.json', { with: { type: 'json' } })).default;
    for (const name of Object.keys(dependencies)) {
      const target = join(app, 'node_modules', name);
      mkdirSync(dirname(target), { recursive: true });
      symlinkSync(resolve('node_modules', name), target, 'dir');
    }
    writeFileSync(join(app, 'package.json'), '{"name":"app","private":true}');
    const bin = join(own, 'dist', 'cli', 'main.js');
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
