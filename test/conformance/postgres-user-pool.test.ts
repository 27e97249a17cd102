import { postgresUserPoolUnderTest } from '../support/adapters.js';
import { describeOnPostgres } from '../support/postgres.js';
import { runConformanceSuite } from './suite.js';

// The whole suite again on a plain pg.Pool passed as `pool`: whatever the pool's type parsers,
// the adapter reads int8 (sequences, counters, times, totals) as numbers.
runConformanceSuite(postgresUserPoolUnderTest, describeOnPostgres);
