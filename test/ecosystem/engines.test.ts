import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

/** The two functions of semver this test needs (the package ships no types of its own). */
const semver = createRequire(import.meta.url)('semver') as {
  satisfies(version: string, range: string): boolean;
  minVersion(range: string): { version: string } | null;
};

const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as {
  packages: Record<string, { engines?: { node?: string } | string[] }>;
};
const stated = (path: string) =>
  (JSON.parse(readFileSync(path, 'utf8')) as { engines: { node: string } }).engines.node;

/** Every locked package's `engines.node` range, by where it is installed. */
const ranges = Object.entries(lock.packages).flatMap(([location, entry]) => {
  const node = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
  return node && location !== '' && location !== 'packages/client' ? [{ location, node }] : [];
});

describe('engines', () => {
  const minimum = semver.minVersion(stated('package.json'))?.version ?? '';

  // The real minimum: the lowest Node that every package of the install accepts (Vite, under
  // vitest, needs 20.19). `>=20` let 20.0-20.18 install and then fail or warn.
  it('every locked package, the tools included, accepts the stated minimum Node', () => {
    expect(minimum).toBe('20.19.0');
    expect(ranges.filter(({ node }) => !semver.satisfies(minimum, node))).toEqual([]);
  });

  it('and the minimum is not lower than needed: some package refuses the release before it', () => {
    expect(ranges.filter(({ node }) => !semver.satisfies('20.18.3', node)).length).toBeGreaterThan(0);
  });

  it('the client package states the same minimum', () => {
    expect(stated('packages/client/package.json')).toBe(stated('package.json'));
  });

  // Node 20 is the lowest major supported; a package that needs 22 would warn on every install.
  it('no locked package needs a later major than the minimum', () => {
    expect(
      ranges.filter(({ node }) => !semver.satisfies('20.99.0', node) && semver.satisfies('22.99.0', node)),
    ).toEqual([]);
  });
});
