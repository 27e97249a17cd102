import { describe, it } from 'vitest';
import { postgresUnderTest } from '../support/adapters.js';
import { postgresSkipReason, testDatabaseUrl } from '../support/postgres.js';
import { runConformanceSuite } from './suite.js';

if (testDatabaseUrl) {
  runConformanceSuite(postgresUnderTest);
} else {
  describe('the postgres storage adapter', () => {
    it.skip(`passes the storage conformance suite (skipped: ${postgresSkipReason})`, () => {});
  });
}
