import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * `npm run new-family` end to end: in a copy of the repository (its tracked and new files, and
 * this checkout's node_modules linked in), the scaffold's family builds, type-checks, passes the
 * linter and its own store and HTTP suites, and changes five files outside its own folders: the
 * resource family list, and one migration per SQL adapter with its line in that adapter's list of
 * migrations. Slow (a build, a type
 * check and a test run), so it runs in a project of its own after the others (vitest.config.ts).
 */

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const minutes = 60_000;

/** The family's own folders: what the scaffold may write without counting. */
const ownFolders = ['src/core/families/milestones/', 'test/families/milestones/'];

let copy: string;

/** Runs a command in the copy; its output is shown when it fails. */
function inCopy(command: string, args: string[]) {
  // Without this run's VITEST_* variables: the copy's test run is a run of its own.
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST')));
  const run = spawnSync(command, args, { cwd: copy, encoding: 'utf8', env });
  return { code: run.status, out: `${run.stdout}${run.stderr}` };
}
const expectSuccess = (run: { code: number | null; out: string }) =>
  expect({ code: run.code, out: run.code === 0 ? '' : run.out }).toEqual({ code: 0, out: '' });

/** The files `git status` shows changed or new, one path each. */
const changedFiles = (): string[] =>
  execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: copy, encoding: 'utf8' })
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.slice(3));

beforeAll(() => {
  copy = mkdtempSync(join(tmpdir(), 'outcome-tracker-scaffold-'));
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: repo,
    encoding: 'utf8',
  })
    .split('\n')
    .filter((file) => file !== '' && file !== 'node_modules');
  for (const file of files) {
    mkdirSync(join(copy, dirname(file)), { recursive: true });
    // A file listed but deleted in the checkout is not part of what is being tested.
    try {
      cpSync(join(repo, file), join(copy, file));
    } catch {}
  }
  symlinkSync(realpathSync(join(repo, 'node_modules')), join(copy, 'node_modules'));
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=scaffold', '-c', 'user.email=scaffold@example.test', ...args], {
      cwd: copy,
    });
  git('init', '--quiet');
  git('add', '--all');
  git('commit', '--quiet', '--message', 'the repository as it is');
});

afterAll(() => {
  if (copy) rmSync(copy, { recursive: true, force: true });
});

describe('npm run new-family', () => {
  it('refuses a name that is not a lowercase plural noun, or that a family has, with exit 2 and nothing written', () => {
    for (const [name, reason] of [
      ['Milestones', /lowercase plural noun/],
      ['milestone', /lowercase plural noun/],
      ['mile_stones', /lowercase plural noun/],
      ['views', /family "views" already/],
      ['comments', /family "comments" already/],
    ] as const) {
      const run = inCopy('node', ['scripts/new-family.mjs', name]);
      expect({ name, code: run.code }).toEqual({ name, code: 2 });
      expect(run.out).toMatch(reason);
    }
    expect(inCopy('node', ['scripts/new-family.mjs']).code).toBe(2);
    expect(changedFiles()).toEqual([]);
  });

  it(
    'makes a family that builds, type-checks and passes its suites, changing 5 files outside its folders',
    () => {
      expectSuccess(inCopy('node', ['scripts/new-family.mjs', 'milestones']));
      const outside = changedFiles().filter((file) => !ownFolders.some((folder) => file.startsWith(folder)));
      // The family list, a migration per SQL adapter, and each adapter's list of migrations.
      expect(outside.sort()).toEqual([
        expect.stringMatching(/^src\/adapters\/postgres\/migrations\/\d{3}_milestones\.ts$/),
        'src/adapters/postgres/migrations/index.ts',
        expect.stringMatching(/^src\/adapters\/sqlite\/migrations\/\d{3}_milestones\.ts$/),
        'src/adapters/sqlite/migrations/index.ts',
        'src/core/families/resources.ts',
      ]);
      expect(readdirSync(join(copy, 'test/families/milestones')).sort()).toEqual([
        'http.test.ts',
        'operation-ids.json',
        'store.test.ts',
      ]);

      expectSuccess(inCopy('node', ['node_modules/.bin/biome', 'check', ...changedFiles()]));
      expectSuccess(inCopy('node', ['scripts/build.mjs']));
      expectSuccess(inCopy('node', ['node_modules/.bin/tsc', '-p', 'tsconfig.json', '--noEmit']));
      expectSuccess(
        inCopy('node', ['node_modules/.bin/depcruise', 'src', '--config', '.dependency-cruiser.cjs']),
      );
      // The family's own suites on memory and SQLite (and PostgreSQL when TEST_DATABASE_URL is
      // set), the shared storage suite (its collection among the others), and the checks that
      // take it from the family list.
      expectSuccess(
        inCopy('node', [
          'node_modules/.bin/vitest',
          'run',
          'test/families/milestones/',
          'test/conformance/memory.test.ts',
          'test/migrations/lists.test.ts',
          'test/openapi/examples.test.ts',
          'test/http/route-access.test.ts',
          'test/postgres/distribution-docs.test.ts',
        ]),
      );
    },
    20 * minutes,
  );
});
