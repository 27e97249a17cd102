import { existsSync } from 'node:fs';
import { describe, it } from 'vitest';
import { postgresSkipReason } from '../support/postgres.js';
import { postgresDatabase } from './cluster.js';
import { threeServesSuite } from './suite.js';

const serverUrl = process.env.TEST_DATABASE_URL || undefined;

if (serverUrl) {
  // Without the adapter in the build, `--db postgres://…` would not reach PostgreSQL at all.
  if (!existsSync('dist/adapters/postgres/index.js')) {
    throw new Error('TEST_DATABASE_URL is set but the build has no PostgreSQL adapter: build first');
  }
  threeServesSuite('PostgreSQL', () => postgresDatabase(serverUrl));
} else {
  describe('three serve processes on one PostgreSQL database', () => {
    // Only without a database: the run's summary then says why these tests did not run. With
    // TEST_DATABASE_URL set (as .ci/run sets it) the suite above runs and this is not registered.
    it.skip(`skipped: ${postgresSkipReason}`, () => {});
  });
}
