import { describe, expect, it } from 'vitest';
import { skipSummary } from '../support/skip-summary.js';

const pgSource = "import { testDatabaseUrl } from '../support/postgres.js';";
const browserSource = "import { hasChromium } from '../support/chromium.js';";
const nothing = { postgres: false, chromium: false };

describe('the skipped-tests line at the end of a run', () => {
  it('says so when nothing was skipped', () => {
    expect(skipSummary([], nothing)).toBe('Skipped: none.');
  });

  it('names the missing prerequisite, the count and the files, most skipped first', () => {
    const line = skipSummary(
      [
        { file: 'test/browser/a.test.ts', name: 'pages > fit', source: browserSource },
        { file: 'test/postgres/b.test.ts', name: 'writes > one', source: pgSource },
        { file: 'test/postgres/b.test.ts', name: 'writes > two', source: pgSource },
        { file: 'test/cli/c.test.ts', name: 'copies to postgres', source: 'process.env.TEST_DATABASE_URL' },
      ],
      nothing,
    );
    expect(line).toBe(
      'Skipped 4 tests: 3 because TEST_DATABASE_URL is unset (test/postgres/b.test.ts, test/cli/c.test.ts); ' +
        '1 because /usr/bin/chromium is missing (test/browser/a.test.ts).',
    );
  });

  it('takes a reason the test states in its name at its word, parentheses and all', () => {
    const line = skipSummary(
      [
        {
          file: 'test/conformance/sqlite.test.ts',
          name: 'issues > keeps order (skipped on sqlite: one writer (by design)) > first',
          source: '',
        },
      ],
      { postgres: true, chromium: true },
    );
    expect(line).toBe('Skipped 1 test: 1 because one writer (by design) (test/conformance/sqlite.test.ts).');
  });

  it('does not blame a prerequisite the machine has, and lists many files briefly', () => {
    const tests = ['a', 'b', 'c', 'd'].map((name) => ({
      file: `test/${name}.test.ts`,
      name,
      source: pgSource,
    }));
    expect(skipSummary(tests, { postgres: true, chromium: true })).toBe(
      'Skipped 4 tests: 4 because a condition in the test (see the file) (test/a.test.ts, test/b.test.ts and 2 more files).',
    );
  });
});
