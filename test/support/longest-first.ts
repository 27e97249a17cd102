import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Each group's test files, the longest first. Vitest starts a group's files in the order given
 * and a worker takes the next as it frees, so a long file started last holds the group open
 * alone: on a clean clone (no cache of the last run's durations) Vitest orders by file size, and
 * the PostgreSQL and Citus suites (a few lines each, six minutes each) started last. Durations
 * come from Vitest's cache of this checkout's last run when there is one, else from
 * `test/durations.json` (seconds, `project:path`; `node scripts/record-test-durations.mjs`
 * writes it from the cache after a full run). A file in neither is taken as short.
 */
const recorded: Record<string, number> = JSON.parse(
  readFileSync(new URL('../durations.json', import.meta.url), 'utf8'),
);

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const expected = (spec: TestSpecification): number => {
      const key = `${spec.project.name}:${relative(root, spec.moduleId)}`;
      return this.ctx.cache.getFileTestResults(key)?.duration ?? (recorded[key] ?? 0) * 1000;
    };
    const order = (spec: TestSpecification) => spec.project.config.sequence.groupOrder;
    return [...files].sort((a, b) => order(a) - order(b) || expected(b) - expected(a));
  }
}
