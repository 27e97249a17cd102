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
import { webhookTests } from './webhooks.js';

/**
 * The storage conformance suite: every contract of the storage port, transactions included,
 * registered against one adapter. Each test opens a fresh store and depends on no other test.
 */
export function runConformanceSuite(
  adapter: AdapterUnderTest,
  describeSuite: (title: string, body: () => void) => void = describe,
): void {
  describeSuite(`the ${adapter.name} storage adapter`, () => {
    transactionTests(adapter);
    collectionTests(adapter);
    totalTests(adapter);
    sortTests(adapter);
    filterTests(adapter);
    externalTests(adapter);
    labelTests(adapter);
    keptTotalTests(adapter);
    dueRangeTests(adapter);
    tenancyTests(adapter);
    signalTests(adapter);
    recordTests(adapter);
    webhookTests(adapter);
    dumpTests(adapter);
  });
}
