import { existsSync } from 'node:fs';
import { describeOnPostgres, requireDatabaseUrl, testDatabaseUrl } from '../support/postgres.js';
import { postgresDatabase } from './cluster.js';
import { threeServesSuite } from './suite.js';

// Without the adapter in the build, `--db postgres://…` would not reach PostgreSQL at all.
if (testDatabaseUrl && !existsSync('dist/adapters/postgres/index.js')) {
  throw new Error('TEST_DATABASE_URL is set but the build has no PostgreSQL adapter: build first');
}
// Without TEST_DATABASE_URL the suite is declared and skipped, each test saying why.
threeServesSuite('PostgreSQL', () => postgresDatabase(requireDatabaseUrl()), {
  describeSuite: describeOnPostgres,
});
