import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { sqliteStorage } from '../../src/adapters/sqlite/index.js';
import type { IdempotencyRecord } from '../../src/core/model.js';

describe('SQLite idempotency records', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ot-idempotency-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const record: IdempotencyRecord & { body: string } = {
    workspaceId: 'wsp_1',
    key: '0b7f5c1e-4a7e-4c57-9d0e-2f1f3b7f6a01',
    fingerprint: 'f'.repeat(64),
    createdAt: '2026-11-24T10:00:00.000Z',
    status: 201,
    body: JSON.stringify({ id: 'iss_1', title: 'Quotes " and \\ and \u2028 survive', labels: ['a'] }),
    headers: { Location: '/api/v1/issues/iss_1', ETag: '"1"' },
  };

  it('store the answer as JSON inside the record, not as an escaped string, and read it back whole', async () => {
    const file = join(dir, 'new.db');
    const storage = sqliteStorage({ filename: file });
    await storage.transaction((tx) => tx.idempotency.put(record, '2026-11-23T10:00:00.000Z'));
    expect(await storage.transaction((tx) => tx.idempotency.get('wsp_1', record.key))).toEqual(record);
    await storage.close();
    const db = new Database(file, { readonly: true });
    const data = db.prepare('SELECT data FROM idempotency_keys').pluck().get() as string;
    db.close();
    expect(JSON.parse(data).replay).toEqual(JSON.parse(record.body));
    expect(data).not.toContain('\\"id\\"');
  });

  it('read records written before, with the answer as a string', async () => {
    const file = join(dir, 'old.db');
    await sqliteStorage({ filename: file }).close();
    const db = new Database(file);
    db.prepare('INSERT INTO idempotency_keys (workspace_id, key, created_at, data) VALUES (?, ?, ?, ?)').run(
      record.workspaceId,
      record.key,
      record.createdAt,
      JSON.stringify(record),
    );
    db.close();
    const storage = sqliteStorage({ filename: file });
    expect(await storage.transaction((tx) => tx.idempotency.get('wsp_1', record.key))).toEqual(record);
    await storage.close();
  });
});
