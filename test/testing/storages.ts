import type { TestStorageOption } from '../../src/testing/index.js';
import { testDatabaseUrl } from '../support/postgres.js';

/** The storages a test tracker can run on: PostgreSQL too when TEST_DATABASE_URL names a server. */
export const storages: { name: string; option: TestStorageOption }[] = [
  { name: 'memory', option: 'memory' },
  { name: 'sqlite', option: 'sqlite' },
  ...(testDatabaseUrl ? [{ name: 'postgres', option: { postgres: testDatabaseUrl } }] : []),
];
