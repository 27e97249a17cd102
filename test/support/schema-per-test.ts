import { afterEach, beforeEach } from 'vitest';
import { type ClaimedSchema, claimCitusSchema } from './citus-schemas.js';
import { dropSchema, freshSchema, onCitus, requireDatabaseUrl, resetTablesSql } from './postgres.js';

/** Something a test opened on PostgreSQL (a storage, a tracker, a pool): closed after it. */
export interface Closable {
  close(): Promise<void>;
}

/**
 * A schema of each test's own, for the PostgreSQL suites that make their storages themselves
 * (several on one schema, as several processes): after each test, everything it pushed to
 * `open` is closed, then its schema, if it used one, is dropped. On a Citus run the schema is an
 * emptied one of the run's pool (citus-schemas.ts), given back instead of dropped.
 */
export function schemaPerTest(): { open: Closable[]; readonly name: string } {
  const open: Closable[] = [];
  let name = '';
  let claimed: ClaimedSchema | undefined;
  if (onCitus) {
    beforeEach(async () => {
      claimed = await claimCitusSchema(requireDatabaseUrl(), resetTablesSql);
    });
  }
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.close()));
    if (claimed) await claimed.release();
    else if (name) await dropSchema(name);
    claimed = undefined;
    name = '';
  });
  return {
    open,
    /** This test's schema: made the first time it is asked for. */
    get name() {
      name ||= claimed?.schema ?? freshSchema();
      return name;
    },
  };
}
