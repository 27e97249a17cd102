import { describe } from 'vitest';

/**
 * `describe`, or, when `skipReason` says why the suite cannot run on this machine, the same suite
 * declared and skipped with the reason in its title: each of its tests is then reported as skipped,
 * and the run's summary says why (test/support/skip-summary.ts).
 */
export function describeUnless(skipReason: string | null, title: string, body: () => void): void {
  if (skipReason === null) describe(title, body);
  else describe.skip(`${title} (skipped: ${skipReason})`, body);
}
