import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const repo = resolve('.');
const manifest = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as {
  exports: Record<string, unknown>;
  dependencies: Record<string, string>;
};
const subpaths = Object.keys(manifest.exports).map((key) =>
  key === '.' ? 'outcome-tracker' : `outcome-tracker/${key.slice(2)}`,
);

/**
 * The optional peers an embedder installs to use /hono, /postgres and /mcp, and the types they
 * need: hono and the MCP SDK ship their own; pg's come from @types/pg (the README says so).
 */
const peersForAll = ['hono', '@hono/node-server', 'pg', '@types/pg', '@modelcontextprotocol/sdk'];

/** Links a package of the repo's node_modules into the project's, as an install would place it. */
function link(project: string, name: string): void {
  const target = join(project, 'node_modules', name);
  mkdirSync(dirname(target), { recursive: true });
  symlinkSync(join(repo, 'node_modules', name), target, 'dir');
}

/**
 * An embedder's project holding the package as `npm pack` makes it, with what an install with
 * --omit=dev brings (the package's dependencies, linked from this repo's node_modules so that no
 * network is needed) and TypeScript with Node's types; `peers` adds optional peers.
 */
async function project(tarball: string, peers: string[]): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'ot-types-'));
  const own = join(dir, 'node_modules', 'outcome-tracker');
  mkdirSync(own, { recursive: true });
  await run('tar', ['-xzf', tarball, '-C', own, '--strip-components=1']);
  for (const name of [...Object.keys(manifest.dependencies), '@types/node', ...peers]) link(dir, name);
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'embedder', private: true, type: 'module' }),
  );
  return dir;
}

/** An embedder's file: every public subpath imported, the main types used. */
const embedderSource = (paths: string[]) => `
${paths.map((subpath, i) => `import * as m${i} from '${subpath}';`).join('\n')}
import { createTracker, type Tracker, type TrackerOptions, type Storage } from 'outcome-tracker';
import { memoryStorage } from 'outcome-tracker/memory';
import { createClient } from 'outcome-tracker/client';

export const modules = [${paths.map((_, i) => `m${i}`).join(', ')}];
const storage: Storage = memoryStorage();
const options: TrackerOptions = { storage, basePath: '/tracker/api/v1', cors: { origins: ['https://app.example.com'] } };
export const tracker: Tracker = createTracker(options);
export const answer: Promise<Response> = tracker.fetch(new Request('http://x/tracker/api/v1/projects'));
export const client = createClient({ baseUrl: 'http://x/tracker/api/v1', token: 'cn_x' });
`;

/** Type-checks the embedder's file with skipLibCheck off: answers tsc's output (empty when clean). */
async function typeCheck(dir: string, moduleResolution: 'node16' | 'bundler', paths: string[]) {
  writeFileSync(join(dir, 'embedder.ts'), embedderSource(paths));
  writeFileSync(
    join(dir, `tsconfig.${moduleResolution}.json`),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: moduleResolution === 'node16' ? 'node16' : 'ESNext',
        moduleResolution,
        strict: true,
        skipLibCheck: false,
        noEmit: true,
        types: ['node'],
      },
      files: ['embedder.ts'],
    }),
  );
  const tsc = join(repo, 'node_modules', 'typescript', 'bin', 'tsc');
  const result = await run(process.execPath, [tsc, '-p', `tsconfig.${moduleResolution}.json`], {
    cwd: dir,
  }).catch((error: { stdout: string }) => ({ stdout: error.stdout }));
  return result.stdout;
}

describe('the packed package, type-checked as an embedder uses it (skipLibCheck off)', () => {
  let tarball: string;
  const made: string[] = [];
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ot-pack-'));
    made.push(dir);
    // The build `npm test` made; no prepare script, so packing does not build again.
    const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], {
      cwd: repo,
    });
    tarball = join(dir, (JSON.parse(stdout) as { filename: string }[])[0]?.filename ?? '');
  }, 180_000);
  afterAll(() => {
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  });

  // Two type-checks, run side by side: tsc with skipLibCheck off checks every declaration file
  // (zod's, Node's, hono's), about 10 s of CPU each. The generous time limits are for a loaded
  // machine, where the same work has taken several times as long.
  it('resolves every public subpath under node16 with the optional peers, and the rest under bundler without them', async () => {
    const [withPeers, withoutPeers] = await Promise.all([
      project(tarball, peersForAll),
      project(tarball, []),
    ]);
    made.push(withPeers, withoutPeers);
    const [node16, bundler] = await Promise.all([
      typeCheck(withPeers, 'node16', subpaths),
      // An embedder who installed neither hono, pg nor the MCP SDK: the subpaths that need none.
      typeCheck(
        withoutPeers,
        'bundler',
        subpaths.filter((path) => !/\/(hono|postgres|mcp)$/.test(path)),
      ),
    ]);
    expect({ node16, bundler }).toEqual({ node16: '', bundler: '' });
  }, 240_000);
});
