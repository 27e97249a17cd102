import { describe, expect, it } from 'vitest';
import { sqliteStorage } from '../../src/adapters/sqlite/index.js';
import { earlierSchemaFile } from '../support/earlier-schema.js';

describe('the members and token-expiry migration on a database made before it', () => {
  const file = earlierSchemaFile();

  it('keeps every membership, user and token, at version 1, never expiring', async () => {
    const db = file.migratedTo(1);
    db.prepare(
      "INSERT INTO users (id, email, email_key, created_at) VALUES ('usr_1', 'Ada@x.test', 'ada@x.test', '2026-01-01T00:00:00.000Z')",
    ).run();
    db.prepare(
      "INSERT INTO memberships (workspace_id, user_id, role, created_at) VALUES ('ws_1', 'usr_1', 'admin', '2026-01-02T00:00:00.000Z')",
    ).run();
    db.prepare(
      "INSERT INTO tokens (id, workspace_id, user_id, name, scope, hash, last_four, created_at) VALUES ('tok_1', 'ws_1', 'usr_1', 'ci', 'read', 'h', 'abcd', '2026-01-03T00:00:00.000Z')",
    ).run();
    db.close();

    const storage = sqliteStorage({ filename: file.filename() });
    try {
      await storage.transaction(async (tx) => {
        expect(await tx.tenancy.getMembership('ws_1', 'usr_1')).toEqual({
          workspaceId: 'ws_1',
          userId: 'usr_1',
          role: 'admin',
          createdAt: '2026-01-02T00:00:00.000Z',
          updatedAt: '2026-01-02T00:00:00.000Z',
          version: 1,
        });
        expect((await tx.tenancy.getUser('usr_1'))?.lastSignInAt).toBeNull();
        expect((await tx.tokens.get('tok_1'))?.expiresAt).toBeNull();
        expect((await tx.tenancy.listMembers({ workspaceId: 'ws_1', role: 'admin', limit: 5 })).total).toBe(
          1,
        );
      });
    } finally {
      await storage.close();
    }
  });
});
