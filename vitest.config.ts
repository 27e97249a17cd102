import { defineConfig } from 'vitest/config';

// Most test files spend their time waiting on sockets, child processes and PostgreSQL, so three run
// at once on a 2-core machine. Files that measure one tenant's latency while another loads the
// server run afterwards, one at a time, so that other test files are not the load they measure.
const measuresLatency = ['test/**/*fairness*.test.ts'];

export default defineConfig({
  test: {
    // The default report, then one line naming the tests skipped and why (PostgreSQL, Chromium).
    reporters: ['default', './test/support/skip-summary.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'main',
          include: ['test/**/*.test.ts'],
          exclude: measuresLatency,
          maxWorkers: 3,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'latency',
          include: measuresLatency,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
