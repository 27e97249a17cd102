import { existsSync, readFileSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';

/** A skipped test: its file (relative to the repository), its full name, and its file's source. */
export interface SkippedTest {
  file: string;
  name: string;
  source: string;
}

/** What the machine lacks for the tests that need it (checked the way the tests themselves do). */
export interface Prerequisites {
  postgres: boolean;
  chromium: boolean;
}

/**
 * Why a test was skipped. A skip that says why in its name ("… (skipped on sqlite: …)", "skipped:
 * …") is taken at its word; otherwise a file that uses the PostgreSQL or Chromium support was
 * skipped for the prerequisite the machine lacks.
 */
function reasonFor(test: SkippedTest, have: Prerequisites): string {
  const stated = /skipped(?: on [^:]+)?: (.*)$/.exec(test.name)?.[1]?.split(' > ')[0];
  if (stated) {
    // "… (skipped: why)": the title's closing parenthesis is not part of the reason.
    const unbalanced = stated.split(')').length > stated.split('(').length;
    return unbalanced ? stated.slice(0, stated.lastIndexOf(')')) : stated;
  }
  const usesPostgres = /support\/postgres|TEST_DATABASE_URL|testDatabaseUrl/.test(test.source);
  if (!have.postgres && usesPostgres) return 'TEST_DATABASE_URL is unset';
  if (!have.chromium && /support\/chromium/.test(test.source)) return '/usr/bin/chromium is missing';
  return 'a condition in the test (see the file)';
}

/** The one line printed at the end of a run: how many tests were skipped, where, and why. */
export function skipSummary(skipped: readonly SkippedTest[], have: Prerequisites): string {
  if (skipped.length === 0) return 'Skipped: none.';
  const byReason = new Map<string, SkippedTest[]>();
  for (const test of skipped) {
    const reason = reasonFor(test, have);
    byReason.set(reason, [...(byReason.get(reason) ?? []), test]);
  }
  const parts = [...byReason]
    .sort(([, a], [, b]) => b.length - a.length)
    .map(([reason, tests]) => {
      const files = [...new Set(tests.map((test) => test.file))];
      const where =
        files.length <= 3
          ? files.join(', ')
          : `${files.slice(0, 2).join(', ')} and ${files.length - 2} more files`;
      return `${tests.length} because ${reason} (${where})`;
    });
  return `Skipped ${skipped.length} test${skipped.length === 1 ? '' : 's'}: ${parts.join('; ')}.`;
}

/**
 * Prints the skip summary as the run's last line, so a run without PostgreSQL or Chromium never
 * reads as complete. Tests left out by `-t` or `.only` are not skips of this kind.
 */
export default class SkipSummaryReporter implements Reporter {
  private pattern: RegExp | undefined;

  onInit(vitest: { config: { testNamePattern?: RegExp | undefined } }): void {
    this.pattern = vitest.config.testNamePattern;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const skipped: SkippedTest[] = [];
    for (const module of testModules) {
      let source: string | undefined;
      for (const test of module.children.allTests('skipped')) {
        if (this.pattern && !this.pattern.test(test.fullName)) continue;
        if (test.options.mode === 'todo') continue;
        source ??= readFileSync(module.moduleId, 'utf8');
        skipped.push({ file: module.relativeModuleId, name: test.fullName, source });
      }
    }
    const have = {
      postgres: Boolean(process.env.TEST_DATABASE_URL),
      chromium: existsSync('/usr/bin/chromium'),
    };
    process.stdout.write(`\n${skipSummary(skipped, have)}\n`);
  }
}
