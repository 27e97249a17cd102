import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ClientFixture, clientFixture } from '../client/harness.js';

const run = promisify(execFile);
const repo = resolve('.');
const clientDir = join(repo, 'packages', 'client');
const rootManifest = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));
const clientManifest = JSON.parse(readFileSync(join(clientDir, 'package.json'), 'utf8'));

/** Every file under `dir`, relative to it. */
function filesUnder(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? filesUnder(join(dir, entry.name), `${prefix}${entry.name}/`)
      : [`${prefix}${entry.name}`],
  );
}

/** The packages an install placed in node_modules (scoped ones as @scope/name). */
function installedPackages(app: string): string[] {
  const top = join(app, 'node_modules');
  return readdirSync(top)
    .filter((name) => !name.startsWith('.'))
    .flatMap((name) =>
      name.startsWith('@') ? readdirSync(join(top, name)).map((n) => `${name}/${n}`) : [name],
    );
}

const bytesUnder = (dir: string): number =>
  filesUnder(dir).reduce((sum, file) => sum + statSync(join(dir, file)).size, 0);

/** `npm pack` of the workspace at `dir` into `into`: the tarball's path and what npm reports of it. */
async function pack(dir: string, into: string) {
  const { stdout } = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', into], {
    cwd: dir,
  });
  const [report] = JSON.parse(stdout) as { filename: string; size: number; files: { path: string }[] }[];
  if (!report) throw new Error(`npm pack reported nothing: ${stdout}`);
  return { tarball: join(into, report.filename), size: report.size, files: report.files.map((f) => f.path) };
}

describe('the client package, @outcome-tracker/client, installed into an empty app', () => {
  let app: string;
  let packed: Awaited<ReturnType<typeof pack>>;
  let server: ClientFixture;

  beforeAll(async () => {
    if (!existsSync(join(clientDir, 'dist', 'index.js'))) {
      throw new Error('packages/client/dist is missing: build first (npm run build)');
    }
    packed = await pack(clientDir, mkdtempSync(join(tmpdir(), 'ot-client-pack-')));
    app = mkdtempSync(join(tmpdir(), 'ot-client-app-'));
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
    // --offline: the package depends on nothing, so the install needs no registry at all.
    await run('npm', ['install', '--offline', '--no-audit', '--no-fund', packed.tarball], { cwd: app });
    server = await clientFixture('node');
  });
  afterAll(async () => {
    await server?.close();
  });

  it('brings that one package, no native code and no server dependency', () => {
    const packages = installedPackages(app);
    const installed = join(app, 'node_modules', '@outcome-tracker', 'client');
    const files = filesUnder(installed);
    const bytes = bytesUnder(join(app, 'node_modules'));
    console.log(
      `@outcome-tracker/client: tarball ${(packed.size / 1e3).toFixed(1)} kB; installed into an empty app: ` +
        `${packages.length} package(s), ${(bytes / 1e3).toFixed(0)} kB`,
    );
    expect(packages).toEqual(['@outcome-tracker/client']);
    expect(files.filter((file) => /\.node$|binding\.gyp$|\.map$|tsbuildinfo$/.test(file))).toEqual([]);
    expect(clientManifest.dependencies ?? {}).toEqual({});
    expect(clientManifest.peerDependencies ?? {}).toEqual({});
    expect(Object.keys(clientManifest.scripts ?? {}).filter((s) => /install|prepare/.test(s))).toEqual([]);
  });

  it('talks to a server from the app, through its own module resolution', async () => {
    writeFileSync(
      join(app, 'use.mjs'),
      `import { createClient, verifyWebhook, ApiError } from '@outcome-tracker/client';
const client = createClient({ baseUrl: process.argv[2], token: process.argv[3] });
const project = await client.projects.create({ name: 'From the app' });
const missing = await client.projects.get('prj_missing').catch((error) => error);
console.log(JSON.stringify({ name: project.name, apiError: missing instanceof ApiError, status: missing.status, verify: typeof verifyWebhook }));
`,
    );
    const { stdout } = await run(process.execPath, ['use.mjs', server.url ?? '', server.ws.adminToken], {
      cwd: app,
    });
    expect(JSON.parse(stdout)).toEqual({
      name: 'From the app',
      apiError: true,
      status: 404,
      verify: 'function',
    });
  });

  it("type-checks in a browser app: DOM's types, no Node types", async () => {
    writeFileSync(
      join(app, 'browser.ts'),
      `import { createClient, type Project } from '@outcome-tracker/client';
const client = createClient({ baseUrl: location.origin + '/api/v1', token: 'cn_x' });
export const first: Promise<Project> = client.projects.create({ name: 'x' });
`,
    );
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'ESNext',
          moduleResolution: 'bundler',
          lib: ['ES2022', 'DOM', 'DOM.Iterable'],
          types: [],
          strict: true,
          skipLibCheck: false,
          noEmit: true,
        },
        files: ['browser.ts'],
      }),
    );
    const tsc = join(repo, 'node_modules', 'typescript', 'bin', 'tsc');
    const result = await run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: app }).catch(
      (error: { stdout: string }) => ({ stdout: error.stdout }),
    );
    expect(result.stdout).toBe('');
  });
});

describe('the root package and its client subpath', () => {
  it('depends on the client package at its version, and outcome-tracker/client is that package', async () => {
    expect(rootManifest.dependencies['@outcome-tracker/client']).toBe(clientManifest.version);
    // Shipped inside the package: no registry has to hold the client for the server to install.
    expect(rootManifest.bundleDependencies).toEqual(['@outcome-tracker/client']);
    expect(clientManifest.version).toBe(rootManifest.version);
    const viaRoot = await import('outcome-tracker/client');
    const direct = await import('@outcome-tracker/client');
    expect(viaRoot.ApiError).toBe(direct.ApiError);
    expect(Object.keys(viaRoot).sort()).toEqual(Object.keys(direct).sort());
  });

  it('ships no source maps (the sources they name are not in the package) and no build cache', async () => {
    const packed = await pack(repo, mkdtempSync(join(tmpdir(), 'ot-root-pack-')));
    console.log(
      `outcome-tracker: tarball ${(packed.size / 1e6).toFixed(2)} MB, ${packed.files.length} files`,
    );
    expect(packed.files.filter((file) => /\.map$|tsbuildinfo$/.test(file))).toEqual([]);
    expect(packed.files).toContain('dist/client.js');
    expect(packed.files.filter((file) => file.startsWith('dist/client/'))).toEqual([]);
  });
});

/** Scripts npm runs when a package is installed (not when it is packed, or started in a checkout). */
const installScripts = ['preinstall', 'install', 'postinstall', 'prepare', 'preprepare', 'postprepare'];

describe('the server package, outcome-tracker, installed from its tarball alone', () => {
  let app: string;
  let packed: Awaited<ReturnType<typeof pack>>;

  beforeAll(async () => {
    if (!existsSync(join(repo, 'dist', 'core', 'index.js')))
      throw new Error('dist/ is missing: npm run build first');
    packed = await pack(repo, mkdtempSync(join(tmpdir(), 'ot-server-pack-')));
    app = mkdtempSync(join(tmpdir(), 'ot-server-app-'));
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
    // The package's own scope points at an address where nothing listens: any attempt to fetch
    // @outcome-tracker/client from a registry fails the install. Its other dependencies come from
    // npm's cache (or the registry); their install scripts are skipped (better-sqlite3 would compile,
    // and nothing here opens SQLite).
    await run(
      'npm',
      [
        'install',
        '--prefer-offline',
        '--ignore-scripts',
        '--no-audit',
        '--no-fund',
        '--@outcome-tracker:registry=http://127.0.0.1:9/',
        packed.tarball,
      ],
      { cwd: app },
    );
  }, 300_000);

  it('carries the client inside it, and no script that runs at install', () => {
    expect(packed.files).toContain('node_modules/@outcome-tracker/client/dist/index.js');
    expect(packed.files).toContain('node_modules/@outcome-tracker/client/package.json');
    const installed = JSON.parse(
      readFileSync(join(app, 'node_modules', 'outcome-tracker', 'package.json'), 'utf8'),
    );
    expect(Object.keys(installed.scripts ?? {}).filter((name) => installScripts.includes(name))).toEqual([]);
    expect(
      existsSync(join(app, 'node_modules', 'outcome-tracker', 'node_modules', '@outcome-tracker', 'client')),
    ).toBe(true);
  });

  it('imports outcome-tracker and outcome-tracker/client in the app', async () => {
    writeFileSync(
      join(app, 'use.mjs'),
      `import { createTracker } from 'outcome-tracker';
import { memoryStorage } from 'outcome-tracker/memory';
import { createClient, inProcessFetch, ApiError } from 'outcome-tracker/client';
const tracker = createTracker({ storage: memoryStorage() });
const client = createClient({ baseUrl: 'http://tracker/api/v1', token: 'cn_missing', fetch: inProcessFetch(tracker) });
const refused = await client.projects.get('prj_missing').catch((error) => error);
await tracker.close();
console.log(JSON.stringify({ apiError: refused instanceof ApiError, status: refused.status }));
`,
    );
    const { stdout } = await run(process.execPath, ['use.mjs'], { cwd: app });
    expect(JSON.parse(stdout)).toEqual({ apiError: true, status: 401 });
  });
});
