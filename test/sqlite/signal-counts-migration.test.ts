import { describe, expect, it } from 'vitest';
import { sqliteStorage } from '../../src/adapters/sqlite/index.js';
import { earlierSchemaFile } from '../support/earlier-schema.js';

/** Migration 9 counts the events a database already holds, so totals are right from the start. */
describe('the signal-counts migration on a database made before it', () => {
  const file = earlierSchemaFile();

  it('counts every account’s events by type, and keeps counting from there', async () => {
    const db = file.migratedTo(8);
    const insert = db.prepare(
      "INSERT INTO signals (id, account_id, type, resource_id, occurred_at, data) VALUES (?, ?, ?, 'iss_1', ?, '{}')",
    );
    const events: [string, string][] = [
      ['acc_1', 'issue.created'],
      ['acc_1', 'issue.created'],
      ['acc_1', 'issue.updated'],
      ['acc_2', 'issue.created'],
    ];
    for (const [i, [account, type]] of events.entries()) {
      insert.run(`evt_${i}`, account, type, `2026-01-0${i + 1}T00:00:00.000Z`);
    }
    db.close();

    const storage = sqliteStorage({ filename: file.filename() });
    try {
      const counts = () =>
        storage.transaction(async (tx) => ({
          acc1: await tx.signals.count({ accountId: 'acc_1' }),
          acc1Created: await tx.signals.count({ accountId: 'acc_1', types: ['issue.created'] }),
          acc2: await tx.signals.count({ accountId: 'acc_2' }),
        }));
      expect(await counts()).toEqual({ acc1: 3, acc1Created: 2, acc2: 1 });
      // The first event (acc_1, issue.created) is purged.
      expect(await storage.transaction((tx) => tx.signals.purge('2026-01-02T00:00:00.000Z'))).toBe(1);
      expect(await counts()).toEqual({ acc1: 2, acc1Created: 1, acc2: 1 });
    } finally {
      await storage.close();
    }
  });
});
