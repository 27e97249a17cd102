import { cpSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { tempDir } from './process.js';

/**
 * The package as an app installs it without its optional peers: dist and package.json, its
 * dependencies beside it, and none of its optional peers (pg, the MCP SDK) anywhere up the tree
 * (a temporary directory). Returns the app's directory and the installed CLI's entry.
 */
export async function installedWithoutPeers(): Promise<{ app: string; bin: string }> {
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
  return { app, bin: join(own, 'dist', 'cli', 'main.js') };
}
