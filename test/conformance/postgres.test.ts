import { postgresUnderTest } from '../support/adapters.js';
import { describeOnPostgres } from '../support/postgres.js';
import { runConformanceSuite } from './suite.js';

// Without TEST_DATABASE_URL the suite is declared and skipped, each test saying why.
runConformanceSuite(postgresUnderTest, describeOnPostgres);
