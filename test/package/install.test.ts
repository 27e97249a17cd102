import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const repo = resolve('.');
const manifest = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));
const publicSubpaths = Object.keys(manifest.exports as Record<string, unknown>).map((key) =>
  key === '.' ? 'outcome-tracker' : `outcome-tracker/${key.slice(2)}`,
);

/**
 * The package as a user gets it: packed (from the build `npm test` made), installed with
 * `--omit=dev` into an empty project from the local npm cache where it can, and type-checked as an
 * embedder's code that imports every public subpath, with skipLibCheck off.
 */
describe('the packed package, installed into an empty project', () => {
  let project: string;
  beforeAll(async () => {
    project = mkdtempSync(join(tmpdir(), 'ot-install-'));
    const { stdout } = await run(
      'npm',
      ['pack', '--ignore-scripts', '--json', '--pack-destination', project],
      {
        cwd: repo,
      },
    );
    const tarball = join(project, (JSON.parse(stdout) as { filename: string }[])[0]?.filename ?? '');
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'embedder', private: true, type: 'module' }),
    );
    await run('npm', ['install', '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund', tarball], {
      cwd: project,
    });
  }, 600_000);
  afterAll(() => rmSync(project, { recursive: true, force: true }));

  it('brings neither the docs renderer nor hono, and serves the docs from the copied bundle', async () => {
    const installed = readdirSync(join(project, 'node_modules'));
    expect(installed).not.toContain('@scalar');
    expect(installed).not.toContain('hono');
    expect(installed).not.toContain('@hono');
    const script = `
      import { createTracker } from 'outcome-tracker';
      import { memoryStorage } from 'outcome-tracker/memory';
      const tracker = createTracker({ storage: memoryStorage() });
      const page = await tracker.handle({ method: 'GET', path: '/docs', headers: {} });
      const src = /src="([^"]+)"/.exec(String(page.body))[1];
      const bundle = await tracker.handle({ method: 'GET', path: src, headers: {} });
      const guide = await tracker.handle({ method: 'GET', path: '/docs/guide', headers: {} });
      console.log(JSON.stringify({ bundle: bundle.status, size: String(bundle.body).length, guide: guide.status }));
      await tracker.close();
    `;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: project });
    const served = JSON.parse(stdout);
    expect(served.bundle).toBe(200);
    expect(served.size).toBeGreaterThan(1_000_000);
    expect(served.guide).toBe(200);
  }, 120_000);

  it('tells a user of serve --server hono to install the optional packages', async () => {
    const cli = join(project, 'node_modules', 'outcome-tracker', 'dist', 'cli', 'main.js');
    const failed = await run(
      process.execPath,
      [cli, 'serve', '--server', 'hono', '--port', '0', '--db', join(project, 'x.db')],
      {
        cwd: project,
      },
    ).catch((error: { code: number; stderr: string }) => error);
    expect('code' in failed ? failed.code : 0).toBe(1);
    expect('stderr' in failed ? failed.stderr : '').toContain('npm install hono @hono/node-server');
  }, 120_000);

  it('type-checks an embedder importing every public subpath, without skipLibCheck', async () => {
    // The optional peers an embedder of the Hono host installs, and Node's types.
    await run(
      'npm',
      [
        'install',
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
        `hono@${manifest.devDependencies.hono}`,
        `@hono/node-server@${manifest.devDependencies['@hono/node-server']}`,
        `@types/node@${manifest.devDependencies['@types/node']}`,
      ],
      { cwd: project },
    );
    const imports = publicSubpaths.map((subpath, i) => `import * as m${i} from '${subpath}';`).join('\n');
    writeFileSync(
      join(project, 'embedder.ts'),
      `${imports}\nexport const modules = [${publicSubpaths.map((_, i) => `m${i}`).join(', ')}];\n` +
        "import { createTracker } from 'outcome-tracker';\nimport { memoryStorage } from 'outcome-tracker/memory';\n" +
        "export const tracker = createTracker({ storage: memoryStorage(), basePath: '/tracker/api/v1', cors: { origins: ['https://app.example.com'] } });\n" +
        "export const answer: Promise<Response> = tracker.fetch(new Request('http://x/tracker/api/v1/projects'));\n",
    );
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          skipLibCheck: false,
          noEmit: true,
          types: ['node'],
        },
        files: ['embedder.ts'],
      }),
    );
    const tsc = join(repo, 'node_modules', 'typescript', 'bin', 'tsc');
    const result = await run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: project }).catch(
      (error: { stdout: string }) => ({ stdout: error.stdout, failed: true }),
    );
    expect(result.stdout).toBe('');
  }, 300_000);
});
