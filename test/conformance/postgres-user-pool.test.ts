import { postgresUserPoolUnderTest } from '../support/adapters.js';
import { describeOnPostgres } from '../support/postgres.js';
import { runConformanceSuite } from './suite.js';

// The suite's parts again on a plain pg.Pool passed as `pool`, whose type parsers leave int8 as
// text: those that read int8 (sequences, counters, times, totals, the dump's rows) and those that
// lean on the pool (transactions, tenancy, records). The adapter sets its parsers where it sends
// every statement (connection.ts), so the other parts (sorts, filters, labels, kept totals) would
// test the same parsing again; they run on the storage's own pool (conformance/postgres.test.ts).
runConformanceSuite(postgresUserPoolUnderTest, describeOnPostgres, [
  'transactions',
  'collections',
  'totals',
  'tenancy',
  'signals',
  'records',
  'webhooks',
  'dump',
]);
