import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

interface LockedPackage {
  version?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as {
  packages: Record<string, LockedPackage>;
};
const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

/**
 * Where Node (and npm) find `name` from the package at `location`: its own node_modules, then each
 * enclosing one up to the root's. Answers undefined when the lock file holds it nowhere.
 */
function resolveFrom(location: string, name: string): string | undefined {
  let base = location;
  for (;;) {
    const candidate = base === '' ? `node_modules/${name}` : `${base}/node_modules/${name}`;
    if (lock.packages[candidate]) return candidate;
    if (base === '') return undefined;
    const cut = base.lastIndexOf('/node_modules/');
    base = cut === -1 ? '' : base.slice(0, cut);
  }
}

describe('package-lock.json', () => {
  // `npm ci` refuses a lock file that lacks an optional dependency of a locked package, even one
  // for another platform ("Missing: @biomejs/cli-android-arm64@2.6.8 from lock file"): a lock file
  // written where the registry only had the Linux binaries installs nowhere with `npm ci`.
  it('holds every optional dependency of every locked package, for every platform', () => {
    const missing: string[] = [];
    for (const [location, entry] of Object.entries(lock.packages)) {
      for (const name of Object.keys(entry.optionalDependencies ?? {})) {
        if (!resolveFrom(location, name)) missing.push(`${name} (for ${location || 'the root'})`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("holds every dependency of every locked package and the manifest's own", () => {
    const missing: string[] = [];
    for (const [location, entry] of Object.entries(lock.packages)) {
      for (const name of Object.keys(entry.dependencies ?? {})) {
        if (!resolveFrom(location, name)) missing.push(`${name} (for ${location || 'the root'})`);
      }
    }
    for (const name of [...Object.keys(manifest.dependencies), ...Object.keys(manifest.devDependencies)]) {
      if (!resolveFrom('', name)) missing.push(name);
    }
    expect(missing).toEqual([]);
  });

  // A range would let `npm install` take a newer Biome whose platform packages the registry may not
  // carry yet (for some versions it has only the Linux ones), and the lock file would lose them again.
  it('pins Biome to one version, the one the lock file holds with all its platform packages', () => {
    const pinned = manifest.devDependencies['@biomejs/biome'];
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
    expect(lock.packages['node_modules/@biomejs/biome']?.version).toBe(pinned);
  });
});
