// Writes test/durations.json, the seconds each test file took (3 s or more) by `project:path`,
// from Vitest's cache of this checkout's last full run, for the order in which the next run
// starts its files (test/support/longest-first.ts). Run it after `npm test` when suites grow.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const cacheDir = 'node_modules/.vite/vitest';
const durations = {};
for (const dir of readdirSync(cacheDir)) {
  const { results } = JSON.parse(readFileSync(join(cacheDir, dir, 'results.json'), 'utf8'));
  for (const [key, { duration }] of results) {
    const seconds = Math.round((duration ?? 0) / 1000);
    if (seconds >= 3) durations[key] = seconds;
  }
}
const sorted = Object.fromEntries(Object.entries(durations).sort(([a], [b]) => (a < b ? -1 : 1)));
writeFileSync('test/durations.json', `${JSON.stringify(sorted, null, 2)}\n`);
console.log(`test/durations.json: ${Object.keys(sorted).length} files of 3 s or more`);
