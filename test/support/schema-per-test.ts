import { afterEach } from 'vitest';
import { dropSchema, freshSchema } from './postgres.js';

/** Something a test opened on PostgreSQL (a storage, a tracker, a pool): closed after it. */
export interface Closable {
  close(): Promise<void>;
}

/**
 * A schema of each test's own, for the PostgreSQL suites that make their storages themselves
 * (several on one schema, as several processes): after each test, everything it pushed to
 * `open` is closed, then its schema, if it used one, is dropped.
 */
export function schemaPerTest(): { open: Closable[]; readonly name: string } {
  const open: Closable[] = [];
  let name = '';
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.close()));
    if (name) await dropSchema(name);
    name = '';
  });
  return {
    open,
    /** This test's schema: made the first time it is asked for. */
    get name() {
      name ||= freshSchema();
      return name;
    },
  };
}
