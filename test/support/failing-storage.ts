import type { Storage, StorageTx } from '../../src/core/index.js';

/**
 * Wraps a storage so a test can make issue inserts fail on demand, as a broken database would:
 * the error's message mimics a driver's, so a test can check it never reaches the client.
 */
export function failingStorage(inner: Storage): { storage: Storage; failIssueInserts(on: boolean): void } {
  let failing = false;
  const wrap = (tx: StorageTx): StorageTx => {
    const issues = tx.collections.issues;
    return {
      ...tx,
      collections: {
        ...tx.collections,
        issues: {
          ...issues,
          insert: async (row) => {
            if (failing) throw new Error('SQLITE_IOERR: disk I/O error at /srv/secret/tracker.db');
            return issues.insert(row);
          },
        },
      },
    };
  };
  return {
    storage: {
      transaction: (fn, options) => inner.transaction((tx) => fn(wrap(tx)), options),
      close: () => inner.close(),
    },
    failIssueInserts: (on) => {
      failing = on;
    },
  };
}
