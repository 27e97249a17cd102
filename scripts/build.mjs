// `npm run build` (and so `npm start` and `npm pack`): compiles packages/client and the package,
// then copies the docs pages' assets. When nothing it reads changed since the last build, it
// stops at once: `npm start` otherwise spent 10-15 s compiling an unchanged tree on every start.
// What did change is compiled incrementally (tsc's build info lives in each dist/, so deleting a
// dist/ rebuilds it whole). `--clean` deletes both dist/ first: `npm pack` builds that way, so no
// file of a source since removed reaches the tarball.
import { execFileSync } from 'node:child_process';
import { readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** What the build reads, relative to the repository: a directory stands for everything under it. */
export const buildInputs = [
  'src',
  'packages/client/package.json',
  'packages/client/tsconfig.json',
  'tsconfig.json',
  'tsconfig.build.json',
  'package.json',
  'package-lock.json',
  'docs/api.md',
  'scripts/build.mjs',
  'scripts/build-assets.mjs',
];

/** Written last by a build that succeeded; its time is when that build started. */
export const stampPath = 'dist/.build-stamp';

/** The newest modification time under `path` (a directory's own counts: a file was removed). */
function newest(path) {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((max, name) => Math.max(max, newest(join(path, name))), stat.mtimeMs);
}

/**
 * Why `root` needs building: the inputs modified after the last build, or the outputs missing.
 * Empty when the build is up to date.
 */
export function staleness(root) {
  const built = statSync(join(root, stampPath), { throwIfNoEntry: false })?.mtimeMs;
  if (built === undefined) return ['no build yet'];
  const missing = ['dist/cli/main.js', 'packages/client/dist/index.js'].filter(
    (output) => !statSync(join(root, output), { throwIfNoEntry: false }),
  );
  return [
    ...missing.map((output) => `${output} is missing`),
    ...buildInputs.filter((input) => newest(join(root, input)) > built),
  ];
}

function build(root, clean) {
  if (clean) {
    for (const dir of ['dist', 'packages/client/dist'])
      rmSync(join(root, dir), { recursive: true, force: true });
  }
  const why = staleness(root);
  if (why.length === 0) {
    console.log('dist/ is up to date: nothing it is built from changed since the last build');
    return;
  }
  console.log(`building: ${why.join(', ')}`);
  // The stamp bears the time the build started: a file saved while it ran is newer, so built next time.
  const started = new Date();
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const node = (args) => execFileSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  node([tsc, '-p', 'packages/client/tsconfig.json']);
  node([tsc, '-p', 'tsconfig.build.json']);
  node(['scripts/build-assets.mjs']);
  writeFileSync(join(root, stampPath), `${started.toISOString()}\n`);
  utimesSync(join(root, stampPath), started, started);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  build(fileURLToPath(new URL('../', import.meta.url)), process.argv.includes('--clean'));
}
