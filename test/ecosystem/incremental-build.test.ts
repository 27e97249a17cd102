import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildInputs, staleness, stampPath } from '../../scripts/build.mjs';

/** A tree shaped like the repository, every file dated `at` (seconds since the epoch). */
function tree(at: number): { root: string; write(path: string, when: number): void } {
  const root = mkdtempSync(join(tmpdir(), 'ot-build-'));
  const write = (path: string, when: number) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), 'x');
    // The file and the directories it made: creating an entry dates a directory too.
    for (let at = path; at !== '.'; at = dirname(at)) utimesSync(join(root, at), when, when);
  };
  for (const input of buildInputs) write(input === 'src' ? 'src/core/index.ts' : input, at);
  for (const output of ['dist/cli/main.js', 'packages/client/dist/index.js']) write(output, at);
  return { root, write };
}

describe('the build (npm start, npm pack) decides what to rebuild', () => {
  it('is up to date when nothing it reads changed since the last build', () => {
    const { root, write } = tree(1_000);
    expect(staleness(root)).toEqual(['no build yet']);
    write(stampPath, 2_000);
    expect(staleness(root)).toEqual([]);
  });

  it('rebuilds after a source, a config or the guide changed, or a source was removed', () => {
    const { root, write } = tree(1_000);
    write(stampPath, 2_000);
    write('src/core/index.ts', 3_000);
    write('docs/api.md', 3_000);
    expect(staleness(root)).toEqual(['src', 'docs/api.md']);

    const removal = tree(1_000);
    removal.write('src/cli/gone.ts', 1_000);
    removal.write(stampPath, 2_000);
    rmSync(join(removal.root, 'src/cli/gone.ts')); // dates src/cli now
    expect(staleness(removal.root)).toEqual(['src']);
  });

  it('rebuilds when an output is missing, whatever the dates', () => {
    const { root, write } = tree(1_000);
    write(stampPath, 2_000);
    rmSync(join(root, 'packages/client/dist'), { recursive: true });
    expect(staleness(root)).toEqual(['packages/client/dist/index.js is missing']);
  });
});
