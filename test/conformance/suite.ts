import { describe } from 'vitest';
import type { AdapterUnderTest } from '../support/adapters.js';
import { collectionTests } from './collections.js';
import { dueRangeTests } from './due-ranges.js';
import { dumpTests } from './dump.js';
import { externalTests } from './external.js';
import { filterTests } from './filters.js';
import { keptTotalTests } from './kept-totals.js';
import { labelTests } from './labels.js';
import { recordTests } from './records.js';
import { signalTests } from './signals.js';
import { sortTests } from './sorts.js';
import { tenancyTests } from './tenancy.js';
import { totalTests } from './totals.js';
import { transactionTests } from './transactions.js';
import { watchTests } from './watches.js';
import { webhookTests } from './webhooks.js';

/** The suite's parts, by name, in the order they run. */
export const conformanceParts = {
  transactions: transactionTests,
  collections: collectionTests,
  totals: totalTests,
  sorts: sortTests,
  filters: filterTests,
  external: externalTests,
  labels: labelTests,
  keptTotals: keptTotalTests,
  dueRanges: dueRangeTests,
  tenancy: tenancyTests,
  signals: signalTests,
  records: recordTests,
  webhooks: webhookTests,
  watches: watchTests,
  dump: dumpTests,
} satisfies Record<string, (adapter: AdapterUnderTest) => void>;

export type ConformancePart = keyof typeof conformanceParts;

/**
 * The storage conformance suite: every contract of the storage port, transactions included,
 * registered against one adapter (or the parts named in `only`). Each test opens a fresh store and
 * depends on no other test.
 */
export function runConformanceSuite(
  adapter: AdapterUnderTest,
  describeSuite: (title: string, body: () => void) => void = describe,
  only?: readonly ConformancePart[],
): void {
  describeSuite(`the ${adapter.name} storage adapter`, () => {
    for (const [part, register] of Object.entries(conformanceParts)) {
      if (!only || only.includes(part as ConformancePart)) register(adapter);
    }
  });
}
