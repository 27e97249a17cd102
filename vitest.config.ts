import { defineConfig } from 'vitest/config';
import { LongestFirst } from './test/support/longest-first.js';

// Most test files spend their time waiting on sockets, child processes and PostgreSQL, so four run
// at once on a 2-core machine, the longest first (test/support/longest-first.ts). Files that measure one tenant's latency while another loads the
// server run afterwards, one at a time, so that other test files are not the load they measure.
const measuresLatency = ['test/**/*fairness*.test.ts'];

// The scaffold's test builds, type-checks and tests a copy of the repository with a new family in
// it: a minute or two of one core at a time, in a project of its own (a 20-minute limit) that
// starts among the first files of the main group.
const scaffolds = ['test/scaffold/**/*.test.ts'];

// The PostgreSQL suites run a second time against a distributed database whenever TEST_CITUS_URL
// names a Citus coordinator (`.ci/run` starts one): every schema a test makes is distributed by
// account when it is created, with 4 shards a table to keep that quick, and any statement that
// reaches more than one shard fails (only those marked `/* all accounts: … */` may). Each of its
// statements goes through the coordinator to a worker, so its tests get three times the time.
// Its files run beside the main project's, in one group, the longest first: run after the main
// project's, each group ended with its last long files running alone.
// The Citus tests of test/citus/ run in the main project whenever TEST_CITUS_URL is set.
const citusUrl = process.env.TEST_CITUS_URL || undefined;
const onCitus = [
  'test/conformance/postgres.test.ts',
  'test/http/families/node.test.ts',
  'test/http/families/hono.test.ts',
  ...[
    'batch',
    'concurrent-creates',
    'etag',
    'idempotency',
    'label-filters',
    'model',
    'outcome-summary',
    'pagination',
    'relations',
    'serialized-once',
    'signals',
    'sorted-paging',
    'transitions',
  ].map((name) => `test/properties/${name}.test.ts`),
  'test/postgres/lock-audit.test.ts',
  'test/postgres/account-bound.test.ts',
  'test/postgres/issue-counts.test.ts',
  'test/multi-process/postgres.test.ts',
  'test/cli/copy.test.ts',
];
const citusOptions = '-c citus.shard_count=4 -c citus.multi_task_query_log_level=error';
const withCitusOptions = (url: string): string => {
  const parsed = new URL(url);
  parsed.searchParams.set('options', citusOptions);
  return parsed.toString();
};

export default defineConfig({
  test: {
    // The default report, then one line naming the tests skipped and why (PostgreSQL, Chromium).
    reporters: ['default', './test/support/skip-summary.ts'],
    sequence: { sequencer: LongestFirst },
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'main',
          include: ['test/**/*.test.ts'],
          exclude: [...measuresLatency, ...scaffolds],
          maxWorkers: 4,
          sequence: { groupOrder: 0 },
        },
      },
      ...(citusUrl
        ? [
            {
              extends: true as const,
              test: {
                name: 'citus',
                include: onCitus,
                maxWorkers: 4,
                testTimeout: 180_000,
                hookTimeout: 180_000,
                env: { TEST_DATABASE_URL: withCitusOptions(citusUrl), TEST_DATABASE_KIND: 'citus' },
                // Vitest runs a group's projects with one number of workers: the main project's.
                sequence: { groupOrder: 0 },
              },
            },
          ]
        : []),
      {
        extends: true,
        test: {
          name: 'latency',
          include: measuresLatency,
          maxWorkers: 1,
          sequence: { groupOrder: 2 },
        },
      },
      {
        extends: true,
        test: {
          name: 'scaffold',
          include: scaffolds,
          maxWorkers: 4,
          testTimeout: 20 * 60_000,
          sequence: { groupOrder: 0 },
        },
      },
    ],
  },
});
