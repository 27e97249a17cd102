import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sqliteStorage } from '../../src/adapters/sqlite/index.js';
import type { Membership, StorageTx } from '../../src/core/index.js';
import { at, sampleRow, sampleToken, sampleWebhook } from '../conformance/fixtures.js';

const grantSql = /^SELECT json_array\(t\.id/;
const activeWebhooksSql = /^SELECT data FROM webhooks WHERE account_id = /;
const projectSql = /^SELECT data FROM projects WHERE id = /;

/**
 * A storage whose statements are counted, with a workspace, an admin and a token committed.
 * Transactions started in one go share one write group: one BEGIN … COMMIT, in the order given.
 */
async function seeded(filename = ':memory:') {
  const statements: string[] = [];
  const storage = sqliteStorage({ filename, onStatement: (sql) => statements.push(sql) });
  const admin: Membership = {
    workspaceId: 'wsp_k',
    userId: 'usr_k',
    role: 'admin',
    createdAt: at(0),
    updatedAt: at(0),
    version: 1,
  };
  const token = sampleToken('wsp_k', { userId: 'usr_k' });
  await storage.transaction(async (tx) => {
    await tx.tenancy.insertAccount({ id: 'acc_k', name: 'Kept', createdAt: at(0) });
    await tx.tenancy.insertWorkspace({
      id: 'wsp_k',
      accountId: 'acc_k',
      slug: 'kept',
      name: 'Kept',
      createdAt: at(0),
    });
    await tx.tenancy.insertUser({
      id: 'usr_k',
      email: 'k@example.com',
      passwordHash: null,
      createdAt: at(0),
      lastSignInAt: null,
    });
    await tx.tenancy.putMembership(admin);
    await tx.tokens.insert(token);
    await tx.collections.projects.insert(sampleRow('projects', 'wsp_k', { id: 'prj_k' }));
  });
  statements.length = 0;
  /** Runs the works as transactions queued together, each answering in order. */
  const group = <T>(works: ((tx: StorageTx) => Promise<T>)[]) =>
    Promise.allSettled(works.map((work) => storage.transaction(work)));
  const ran = (pattern: RegExp) => statements.filter((sql) => pattern.test(sql)).length;
  return { storage, token, admin, group, ran };
}

const fulfilledValue = <T>(result: PromiseSettledResult<T> | undefined): T => {
  if (result?.status !== 'fulfilled') throw new Error(`expected a result, got ${String(result?.status)}`);
  return result.value;
};

describe('reads the SQLite adapter keeps for the rest of a transaction', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ot-kept-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keep a token grant across a write group, and read it again after a write that can change it', async () => {
    const { storage, token, admin, group, ran } = await seeded();
    const results = await group([
      (tx) => tx.tokens.grantOf(token.hash, null),
      async (tx) => {
        // An insert into a table the grant does not read keeps it.
        await tx.collections.issues.insert(sampleRow('issues', 'wsp_k', { projectId: 'prj_k' }));
        return tx.tokens.grantOf(token.hash, null);
      },
      async (tx) => {
        await tx.tenancy.updateMembership({ ...admin, role: 'viewer', version: 2 }, 1);
        return tx.tokens.grantOf(token.hash, null);
      },
      async (tx) => {
        await tx.tokens.revoke(token.id, at(5));
        return tx.tokens.grantOf(token.hash, null);
      },
    ]);
    expect(ran(/^COMMIT/)).toBe(1);
    expect(results.map((r) => fulfilledValue(r)?.role)).toEqual(['admin', 'admin', 'viewer', 'viewer']);
    expect(fulfilledValue(results[3])?.token.revokedAt).toBe(at(5));
    // Read for the first, the third and the fourth; the second found it kept.
    expect(ran(grantSql)).toBe(3);
    await storage.close();
  });

  it('keep a read that found nothing, until an insert into its table', async () => {
    const { storage, group, ran } = await seeded();
    const unknown = sampleToken('wsp_k', { userId: 'usr_k' });
    const results = await group([
      (tx) => tx.tokens.grantOf(unknown.hash, null),
      (tx) => tx.tokens.grantOf(unknown.hash, null),
      async (tx) => {
        await tx.tokens.insert(unknown);
        return tx.tokens.grantOf(unknown.hash, null);
      },
    ]);
    expect(results.map((r) => fulfilledValue(r)?.token.id ?? null)).toEqual([null, null, unknown.id]);
    expect(ran(grantSql)).toBe(2);
    await storage.close();
  });

  it('forget what a member read when its writes roll back, with the group or with its savepoint', async () => {
    const { storage, token, admin, group, ran } = await seeded();
    const demoteAndFail = async (tx: StorageTx) => {
      await tx.tenancy.updateMembership({ ...admin, role: 'viewer', version: 2 }, 1);
      expect((await tx.tokens.grantOf(token.hash, null))?.role).toBe('viewer');
      throw new Error('the request failed after its write');
    };
    // The first failure takes the group back, and the rest run again each in a savepoint of its
    // own; the second failure then rolls back its savepoint alone, in the middle of that group.
    const results = await group([
      (tx) => tx.tokens.grantOf(token.hash, null),
      demoteAndFail,
      demoteAndFail,
      (tx) => tx.tokens.grantOf(token.hash, null),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
    expect(fulfilledValue(results[0])?.role).toBe('admin');
    expect(fulfilledValue(results[3])?.role).toBe('admin');
    expect(ran(/^SAVEPOINT/)).toBeGreaterThan(0);
    expect(ran(grantSql)).toBeGreaterThanOrEqual(3);
    await storage.close();
  });

  it('see a webhook subscription added earlier in the group, and a project deleted', async () => {
    const { storage, group, ran } = await seeded();
    const results = await group<unknown>([
      async (tx) => (await tx.webhooks.activeFor('acc_k', 'issue.created')).length,
      async (tx) => (await tx.webhooks.activeFor('acc_k', 'issue.created')).length,
      async (tx) => {
        await tx.webhooks.insert(sampleWebhook('acc_k'));
        return (await tx.webhooks.activeFor('acc_k', 'issue.created')).length;
      },
      async (tx) => (await tx.collections.projects.get('wsp_k', 'prj_k'))?.id,
      async (tx) => (await tx.collections.projects.get('wsp_k', 'prj_k'))?.id,
      async (tx) => {
        await tx.collections.projects.delete('wsp_k', 'prj_k');
        return (await tx.collections.projects.get('wsp_k', 'prj_k'))?.id ?? null;
      },
    ]);
    expect(results.map(fulfilledValue)).toEqual([0, 0, 1, 'prj_k', 'prj_k', null]);
    expect(ran(activeWebhooksSql)).toBe(2);
    expect(ran(projectSql)).toBe(2);
    await storage.close();
  });

  it('read afresh in a later transaction, after another process wrote', async () => {
    const file = join(dir, 'two-processes.db');
    const { storage, token } = await seeded(file);
    const other = sqliteStorage({ filename: file });
    expect(
      (await storage.transaction((tx) => tx.tokens.grantOf(token.hash, null)))?.token.revokedAt,
    ).toBeNull();
    await other.transaction((tx) => tx.tokens.revoke(token.id, at(9)));
    expect((await storage.transaction((tx) => tx.tokens.grantOf(token.hash, null)))?.token.revokedAt).toBe(
      at(9),
    );
    const read = await storage.transaction((tx) => tx.tokens.grantOf(token.hash, null), { mode: 'read' });
    expect(read?.token.revokedAt).toBe(at(9));
    await other.close();
    await storage.close();
  });
});
