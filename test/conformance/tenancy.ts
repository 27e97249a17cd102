import { describe, expect, it } from 'vitest';
import type { User } from '../../src/core/index.js';
import type { AdapterUnderTest } from '../support/adapters.js';
import { at, freshStore, newId, sampleSession, sampleToken } from './fixtures.js';

const user = (email: string): User => ({ id: newId('usr'), email, passwordHash: null, createdAt: at(0) });

/** Accounts, workspaces, users, memberships, tokens and admin sessions. */
export function tenancyTests(adapter: AdapterUnderTest): void {
  describe('tenancy', () => {
    const { tx } = freshStore(adapter);

    it('stores accounts and refuses a duplicate id', async () => {
      const account = { id: 'acc_1', name: 'Acme', createdAt: at(0) };
      await tx((t) => t.tenancy.insertAccount(account));
      expect(await tx((t) => t.tenancy.getAccount('acc_1'))).toEqual(account);
      expect(await tx((t) => t.tenancy.getAccount('acc_2'))).toBeNull();
      await expect(tx((t) => t.tenancy.insertAccount({ ...account, name: 'Other' }))).rejects.toMatchObject({
        name: 'UniqueViolation',
        what: 'account.id',
      });
    });

    it('finds workspaces by id and by slug, and keeps slugs unique', async () => {
      const workspace = { id: 'wsp_1', accountId: 'acc_1', slug: 'acme', name: 'Acme', createdAt: at(0) };
      await tx((t) => t.tenancy.insertWorkspace(workspace));
      await tx(async (t) => {
        expect(await t.tenancy.getWorkspace('wsp_1')).toEqual(workspace);
        expect(await t.tenancy.getWorkspaceBySlug('acme')).toEqual(workspace);
        expect(await t.tenancy.getWorkspaceBySlug('globex')).toBeNull();
        expect(await t.tenancy.getWorkspace('wsp_2')).toBeNull();
      });
      await expect(
        tx((t) => t.tenancy.insertWorkspace({ ...workspace, id: 'wsp_2', accountId: 'acc_2' })),
      ).rejects.toMatchObject({ name: 'UniqueViolation', what: 'workspace.slug' });
    });

    it('lists every workspace oldest first, equal creation times by id', async () => {
      expect(await tx((t) => t.tenancy.listWorkspaces())).toEqual([]);
      const make = (id: string, slug: string, createdAt: string) => ({
        id,
        accountId: 'acc_1',
        slug,
        name: slug,
        createdAt,
      });
      const later = make('wsp_a', 'later', at(5));
      const first = make('wsp_c', 'first', at(0));
      const tied = make('wsp_d', 'tied', at(0));
      await tx(async (t) => {
        for (const w of [later, tied, first]) await t.tenancy.insertWorkspace(w);
      });
      expect(await tx((t) => t.tenancy.listWorkspaces())).toEqual([first, tied, later]);
    });

    it('keeps user emails unique case-insensitively and finds users by any casing', async () => {
      const ada = user('Ada@Example.com');
      await tx((t) => t.tenancy.insertUser(ada));
      expect(await tx((t) => t.tenancy.getUserByEmail('ada@example.COM'))).toEqual(ada);
      expect(await tx((t) => t.tenancy.getUser(ada.id))).toEqual(ada);
      await expect(tx((t) => t.tenancy.insertUser(user('ADA@example.com')))).rejects.toMatchObject({
        name: 'UniqueViolation',
        what: 'user.email',
      });
      expect(await tx((t) => t.tenancy.getUserByEmail('bob@example.com'))).toBeNull();
    });

    it('updates an existing user and ignores an unknown one', async () => {
      const ada = user('ada@example.com');
      await tx((t) => t.tenancy.insertUser(ada));
      await tx((t) => t.tenancy.updateUser({ ...ada, passwordHash: 'scrypt$1' }));
      expect((await tx((t) => t.tenancy.getUser(ada.id)))?.passwordHash).toBe('scrypt$1');
      const ghost = user('ghost@example.com');
      await tx((t) => t.tenancy.updateUser(ghost));
      expect(await tx((t) => t.tenancy.getUser(ghost.id))).toBeNull();
      expect(await tx((t) => t.tenancy.getUserByEmail('ghost@example.com'))).toBeNull();
    });

    it('creates, replaces, lists and removes memberships per workspace', async () => {
      const member = { workspaceId: 'wsp_1', userId: 'usr_1', role: 'member' as const, createdAt: at(0) };
      const viewer = { workspaceId: 'wsp_1', userId: 'usr_2', role: 'viewer' as const, createdAt: at(1) };
      const elsewhere = { workspaceId: 'wsp_2', userId: 'usr_1', role: 'admin' as const, createdAt: at(2) };
      await tx(async (t) => {
        for (const m of [member, viewer, elsewhere]) await t.tenancy.putMembership(m);
        await t.tenancy.putMembership({ ...member, role: 'admin' });
      });
      await tx(async (t) => {
        expect(await t.tenancy.getMembership('wsp_1', 'usr_1')).toEqual({ ...member, role: 'admin' });
        expect(await t.tenancy.getMembership('wsp_2', 'usr_1')).toEqual(elsewhere);
        expect(await t.tenancy.getMembership('wsp_2', 'usr_2')).toBeNull();
        const listed = await t.tenancy.listMemberships('wsp_1');
        expect(listed).toHaveLength(2);
        expect(listed).toEqual(expect.arrayContaining([{ ...member, role: 'admin' }, viewer]));
        expect(await t.tenancy.removeMembership('wsp_1', 'usr_2')).toBe(true);
        expect(await t.tenancy.removeMembership('wsp_1', 'usr_2')).toBe(false);
        expect(await t.tenancy.listMemberships('wsp_1')).toEqual([{ ...member, role: 'admin' }]);
      });
    });
  });

  describe('tokens', () => {
    const { tx } = freshStore(adapter);

    it('finds a token by hash and by id, and refuses a duplicate hash or id', async () => {
      const token = sampleToken('wsp_1');
      await tx((t) => t.tokens.insert(token));
      expect(await tx((t) => t.tokens.getByHash(token.hash))).toEqual(token);
      expect(await tx((t) => t.tokens.get(token.id))).toEqual(token);
      expect(await tx((t) => t.tokens.getByHash('unknown'))).toBeNull();
      await expect(
        tx((t) => t.tokens.insert(sampleToken('wsp_1', { hash: token.hash }))),
      ).rejects.toMatchObject({
        name: 'UniqueViolation',
        what: 'token',
      });
      await expect(tx((t) => t.tokens.insert(sampleToken('wsp_1', { id: token.id })))).rejects.toMatchObject({
        name: 'UniqueViolation',
        what: 'token',
      });
    });

    it('lists a workspace’s tokens newest first', async () => {
      const old = sampleToken('wsp_1', { createdAt: at(0) });
      const recent = sampleToken('wsp_1', { createdAt: at(5) });
      await tx(async (t) => {
        await t.tokens.insert(old);
        await t.tokens.insert(recent);
        await t.tokens.insert(sampleToken('wsp_2'));
      });
      expect(await tx((t) => t.tokens.list('wsp_1'))).toEqual([recent, old]);
    });

    it('sets revokedAt once: a second revoke keeps the first time', async () => {
      const token = sampleToken('wsp_1');
      await tx((t) => t.tokens.insert(token));
      expect(await tx((t) => t.tokens.revoke(token.id, at(10)))).toEqual({ ...token, revokedAt: at(10) });
      expect(await tx((t) => t.tokens.revoke(token.id, at(20)))).toEqual({ ...token, revokedAt: at(10) });
      expect(await tx((t) => t.tokens.revoke('tok_unknown', at(20)))).toBeNull();
      expect((await tx((t) => t.tokens.getByHash(token.hash)))?.revokedAt).toBe(at(10));
    });

    it('records the last use of a token', async () => {
      const token = sampleToken('wsp_1');
      await tx((t) => t.tokens.insert(token));
      await tx((t) => t.tokens.touch(token.id, at(30)));
      expect(await tx((t) => t.tokens.get(token.id))).toEqual({ ...token, lastUsedAt: at(30) });
    });
  });

  describe('sessions', () => {
    const { tx } = freshStore(adapter);

    it('stores, finds and deletes sessions by id hash', async () => {
      const session = sampleSession();
      await tx((t) => t.sessions.insert(session));
      expect(await tx((t) => t.sessions.get(session.idHash))).toEqual(session);
      expect(await tx((t) => t.sessions.delete(session.idHash))).toBe(true);
      expect(await tx((t) => t.sessions.delete(session.idHash))).toBe(false);
      expect(await tx((t) => t.sessions.get(session.idHash))).toBeNull();
    });

    it('purges sessions that expired before the given time, and only those', async () => {
      const expired = sampleSession({ expiresAt: at(10) });
      const boundary = sampleSession({ expiresAt: at(20) });
      const live = sampleSession({ expiresAt: at(30) });
      await tx(async (t) => {
        for (const s of [expired, boundary, live]) await t.sessions.insert(s);
      });
      expect(await tx((t) => t.sessions.purge(at(20)))).toBe(1);
      await tx(async (t) => {
        expect(await t.sessions.get(expired.idHash)).toBeNull();
        expect(await t.sessions.get(boundary.idHash)).toEqual(boundary);
        expect(await t.sessions.get(live.idHash)).toEqual(live);
      });
    });
  });
}
