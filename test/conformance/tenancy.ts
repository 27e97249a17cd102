import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Membership, Role, User } from '../../src/core/index.js';
import { credentialsOf, type StorageTx } from '../../src/core/port/index.js';
import type { AdapterUnderTest } from '../support/adapters.js';
import { at, freshStore, newId, sampleRow, sampleSession, sampleToken } from './fixtures.js';

const user = (email: string): User => ({
  id: newId('usr'),
  email,
  passwordHash: null,
  createdAt: at(0),
  lastSignInAt: null,
});

const membership = (workspaceId: string, userId: string, role: Role, createdAt: string): Membership => ({
  workspaceId,
  userId,
  role,
  createdAt,
  updatedAt: createdAt,
  version: 1,
});

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
      await tx((t) => t.tenancy.updateUser({ ...ada, passwordHash: 'scrypt$1', lastSignInAt: at(9) }));
      expect(await tx((t) => t.tenancy.getUser(ada.id))).toEqual({
        ...ada,
        passwordHash: 'scrypt$1',
        lastSignInAt: at(9),
      });
      const ghost = user('ghost@example.com');
      await tx((t) => t.tenancy.updateUser(ghost));
      expect(await tx((t) => t.tenancy.getUser(ghost.id))).toBeNull();
      expect(await tx((t) => t.tenancy.getUserByEmail('ghost@example.com'))).toBeNull();
    });

    it('creates, replaces, lists and removes memberships per workspace', async () => {
      const member = membership('wsp_1', 'usr_1', 'member', at(0));
      const viewer = membership('wsp_1', 'usr_2', 'viewer', at(1));
      const elsewhere = membership('wsp_2', 'usr_1', 'admin', at(2));
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

    it("lists a user's memberships of every workspace in the order the user joined, ties by workspace id", async () => {
      // Put in another order than they were joined; two joined at the same time.
      const later = membership('wsp_3', 'usr_1', 'viewer', at(5));
      const first = membership('wsp_9', 'usr_1', 'member', at(1));
      const tiedB = membership('wsp_b', 'usr_1', 'admin', at(3));
      const tiedA = membership('wsp_a', 'usr_1', 'admin', at(3));
      const someoneElse = membership('wsp_1', 'usr_2', 'admin', at(0));
      await tx(async (t) => {
        for (const m of [later, first, tiedB, someoneElse, tiedA]) await t.tenancy.putMembership(m);
      });
      expect(await tx((t) => t.tenancy.listUserMemberships('usr_1'))).toEqual([first, tiedA, tiedB, later]);
      expect(await tx((t) => t.tenancy.listUserMemberships('usr_2'))).toEqual([someoneElse]);
      expect(await tx((t) => t.tenancy.listUserMemberships('usr_none'))).toEqual([]);
      await tx((t) => t.tenancy.removeMembership('wsp_a', 'usr_1'));
      expect(await tx((t) => t.tenancy.listUserMemberships('usr_1'))).toEqual([first, tiedB, later]);
    });

    it('updates a membership only at the expected version, and reports the current one', async () => {
      const member = membership('wsp_1', 'usr_1', 'member', at(0));
      await tx((t) => t.tenancy.putMembership(member));
      const demoted = { ...member, role: 'viewer' as const, updatedAt: at(5), version: 2 };
      await tx((t) => t.tenancy.updateMembership(demoted, 1));
      expect(await tx((t) => t.tenancy.getMembership('wsp_1', 'usr_1'))).toEqual(demoted);
      await expect(
        tx((t) => t.tenancy.updateMembership({ ...member, role: 'admin', version: 2 }, 1)),
      ).rejects.toMatchObject({ name: 'VersionMismatch', current: 2 });
      await expect(
        tx((t) => t.tenancy.updateMembership(membership('wsp_1', 'usr_9', 'admin', at(0)), 1)),
      ).rejects.toMatchObject({ name: 'VersionMismatch', current: null });
      expect(await tx((t) => t.tenancy.getMembership('wsp_1', 'usr_1'))).toEqual(demoted);
    });

    it('lets exactly one of two concurrent membership updates at one version succeed', async () => {
      const member = membership('wsp_1', 'usr_1', 'member', at(0));
      await tx((t) => t.tenancy.putMembership(member));
      const results = await Promise.allSettled(
        (['admin', 'viewer'] as const).map((role) =>
          tx((t) => t.tenancy.updateMembership({ ...member, role, version: 2 }, 1)),
        ),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      expect(results.filter((r) => r.status === 'rejected')).toHaveLength(1);
    });

    it('pages members newest first by keyset, filtered by role, with the total of all matches', async () => {
      const rows = [
        membership('wsp_1', 'usr_a', 'admin', at(0)),
        membership('wsp_1', 'usr_b', 'member', at(1)),
        membership('wsp_1', 'usr_c', 'admin', at(1)),
        membership('wsp_1', 'usr_d', 'viewer', at(2)),
        membership('wsp_2', 'usr_e', 'admin', at(3)),
      ];
      await tx(async (t) => {
        for (const m of rows) await t.tenancy.putMembership(m);
      });
      const first = await tx((t) => t.tenancy.listMembers({ workspaceId: 'wsp_1', limit: 2 }));
      expect(first.total).toBe(4);
      expect(first.rows.map((m) => m.userId)).toEqual(['usr_d', 'usr_c']);
      const after = { createdAt: at(1), id: 'usr_c' };
      const second = await tx((t) => t.tenancy.listMembers({ workspaceId: 'wsp_1', after, limit: 5 }));
      expect(second.rows).toEqual([rows[1], rows[0]]);
      expect(second.total).toBe(4);
      const admins = await tx((t) =>
        t.tenancy.listMembers({ workspaceId: 'wsp_1', role: 'admin', limit: 1 }),
      );
      expect(admins.total).toBe(2);
      expect(admins.rows.map((m) => m.userId)).toEqual(['usr_c']);
    });
  });

  describe('tokens', () => {
    const { tx, store } = freshStore(adapter);
    // The workspaces the tokens are of: a token is looked up in its workspace's account.
    beforeEach(async () => {
      await tx(async (t) => {
        await t.tenancy.insertWorkspace({
          id: 'wsp_1',
          accountId: 'acc_1',
          slug: 'one',
          name: '1',
          createdAt: at(0),
        });
        await t.tenancy.insertWorkspace({
          id: 'wsp_2',
          accountId: 'acc_2',
          slug: 'two',
          name: '2',
          createdAt: at(0),
        });
      });
    });

    it('finds a token by hash and by id, and refuses a duplicate hash or id', async () => {
      const token = sampleToken('wsp_1');
      await tx((t) => t.tokens.insert(token));
      expect(await tx((t) => t.tokens.getByHash(token.hash, 'acc_1'))).toEqual(token);
      expect(await tx((t) => t.tokens.get(token.id))).toEqual(token);
      expect(await tx((t) => t.tokens.getByHash('unknown', 'acc_1'))).toBeNull();
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

    it('forgets a token whose transaction failed: neither its hash nor its id finds it', async () => {
      const token = sampleToken('wsp_1');
      await expect(
        tx(async (t) => {
          await t.tokens.insert(token);
          expect((await t.tokens.grantOf(token.hash, 'acc_1'))?.token.id).toBe(token.id);
          throw new Error('the request failed after issuing the token');
        }),
      ).rejects.toThrow('the request failed');
      expect(await tx((t) => t.tokens.getByHash(token.hash, 'acc_1'))).toBeNull();
      expect(await tx((t) => t.tokens.grantOf(token.hash, 'acc_1'))).toBeNull();
      expect(await tx((t) => t.tokens.get(token.id))).toBeNull();
      // The hash is free again.
      await tx((t) => t.tokens.insert({ ...token, id: newId('tok') }));
      expect((await tx((t) => t.tokens.getByHash(token.hash, 'acc_1')))?.hash).toBe(token.hash);
    });

    it('resolves a token with its user’s current role and its workspace’s account in one read', async () => {
      const workspace = { id: 'wsp_g', accountId: 'acc_g', slug: 'grant', name: 'Grant', createdAt: at(0) };
      const member = user('grant@example.com');
      const token = sampleToken('wsp_g', { userId: member.id });
      const orphan = sampleToken('wsp_gone', { userId: member.id });
      await tx(async (t) => {
        await t.tenancy.insertWorkspace(workspace);
        await t.tenancy.insertUser(member);
        await t.tenancy.putMembership(membership('wsp_g', member.id, 'member', at(1)));
        await t.tokens.insert(token);
        // Found by its hash alone, as a token issued before routes is.
        await t.tokens.insert(orphan, { routeByHash: true });
      });
      expect(await tx((t) => t.tokens.grantOf(token.hash, 'acc_g'))).toEqual({
        token: credentialsOf(token),
        role: 'member',
        accountId: 'acc_g',
      });
      expect(await tx((t) => t.tokens.grantOf('unknown', 'acc_g'))).toBeNull();
      // A role change, a revocation and a removal are seen by the next read.
      await tx(async (t) => {
        const current = await t.tenancy.getMembership('wsp_g', member.id);
        if (!current) throw new Error('membership missing');
        await t.tenancy.updateMembership({ ...current, role: 'viewer', version: 2 }, 1);
        await t.tokens.revoke(token.id, at(5));
      });
      expect(await tx((t) => t.tokens.grantOf(token.hash, 'acc_g'))).toEqual({
        token: credentialsOf({ ...token, revokedAt: at(5) }),
        role: 'viewer',
        accountId: 'acc_g',
      });
      await tx((t) => t.tenancy.removeMembership('wsp_g', member.id));
      expect((await tx((t) => t.tokens.grantOf(token.hash, 'acc_g')))?.role).toBeNull();
      expect(await tx((t) => t.tokens.grantOf(orphan.hash, null))).toEqual({
        token: credentialsOf(orphan),
        role: null,
        accountId: null,
      });
    });

    it('answers a read told the row it reads first as it answers one not told', async () => {
      const member = user('ahead@example.com');
      const token = sampleToken('wsp_h', { userId: member.id });
      const mine = sampleRow('issues', 'wsp_h');
      const theirs = sampleRow('issues', 'wsp_o');
      await tx(async (t) => {
        await t.tenancy.insertWorkspace({
          id: 'wsp_h',
          accountId: 'acc_h',
          slug: 'ahead',
          name: 'A',
          createdAt: at(0),
        });
        await t.tenancy.insertUser(member);
        await t.tenancy.putMembership(membership('wsp_h', member.id, 'member', at(1)));
        await t.tokens.insert(token);
        await t.collections.issues.insert(mine);
        await t.collections.issues.insert(theirs);
      });
      const told = <T>(id: string, fn: (t: StorageTx) => Promise<T>) =>
        store().transaction(fn, { mode: 'read', readsFirst: { collection: 'issues', id } });
      const plain = await tx((t) => t.collections.issues.getJson('wsp_h', mine.id));
      expect(plain?.version).toBe(1);
      const read = await told(mine.id, async (t) => ({
        grant: await t.tokens.grantOf(token.hash, 'acc_h'),
        first: await t.collections.issues.getJson('wsp_h', mine.id),
        again: await t.collections.issues.getJson('wsp_h', mine.id),
      }));
      expect(read).toEqual({
        grant: { token: credentialsOf(token), role: 'member', accountId: 'acc_h' },
        first: plain,
        again: plain,
      });
      // Another workspace's row is not the token's; a row that is not there is null.
      const other = await told(theirs.id, async (t) => ({
        grant: (await t.tokens.grantOf(token.hash, 'acc_h'))?.role,
        asTheToken: await t.collections.issues.getJson('wsp_h', theirs.id),
        asItsOwn: (await t.collections.issues.getJson('wsp_o', theirs.id))?.version,
      }));
      expect(other).toEqual({ grant: 'member', asTheToken: null, asItsOwn: 1 });
      expect(
        await told('iss_missing', async (t) => {
          await t.tokens.grantOf(token.hash, 'acc_h');
          return t.collections.issues.getJson('wsp_h', 'iss_missing');
        }),
      ).toBeNull();
      expect(await told(mine.id, (t) => t.tokens.grantOf('unknown', 'acc_h'))).toBeNull();
      // A revoke and a change of the row committed before are both seen.
      await tx(async (t) => {
        await t.tokens.revoke(token.id, at(5));
        await t.collections.issues.update({ ...mine, title: 'Changed', version: 2 }, 1);
      });
      const after = await told(mine.id, async (t) => ({
        revokedAt: (await t.tokens.grantOf(token.hash, 'acc_h'))?.token.revokedAt,
        version: (await t.collections.issues.getJson('wsp_h', mine.id))?.version,
      }));
      expect(after).toEqual({ revokedAt: at(5), version: 2 });
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
      expect((await tx((t) => t.tokens.getByHash(token.hash, 'acc_1')))?.revokedAt).toBe(at(10));
    });

    it('stores a token’s expiry time, or none', async () => {
      const expiring = sampleToken('wsp_1', { expiresAt: at(60) });
      const forever = sampleToken('wsp_1');
      await tx(async (t) => {
        await t.tokens.insert(expiring);
        await t.tokens.insert(forever);
      });
      expect(await tx((t) => t.tokens.getByHash(expiring.hash, 'acc_1'))).toEqual(expiring);
      expect((await tx((t) => t.tokens.get(forever.id)))?.expiresAt).toBeNull();
    });

    it('lists one user’s tokens in a workspace and revokes only their live ones', async () => {
      const old = sampleToken('wsp_1', { userId: 'usr_1', createdAt: at(0) });
      const recent = sampleToken('wsp_1', { userId: 'usr_1', createdAt: at(5) });
      const revoked = sampleToken('wsp_1', { userId: 'usr_1', createdAt: at(1), revokedAt: at(2) });
      const someoneElse = sampleToken('wsp_1', { userId: 'usr_2' });
      const elsewhere = sampleToken('wsp_2', { userId: 'usr_1' });
      await tx(async (t) => {
        for (const token of [old, recent, revoked, someoneElse, elsewhere]) await t.tokens.insert(token);
      });
      expect(await tx((t) => t.tokens.listForUser('wsp_1', 'usr_1'))).toEqual([recent, revoked, old]);
      expect(await tx((t) => t.tokens.revokeForUser('wsp_1', 'usr_1', at(10)))).toBe(2);
      await tx(async (t) => {
        expect((await t.tokens.get(old.id))?.revokedAt).toBe(at(10));
        expect((await t.tokens.get(recent.id))?.revokedAt).toBe(at(10));
        expect((await t.tokens.get(revoked.id))?.revokedAt).toBe(at(2));
        expect((await t.tokens.get(someoneElse.id))?.revokedAt).toBeNull();
        expect((await t.tokens.get(elsewhere.id))?.revokedAt).toBeNull();
      });
    });

    it('records the last use of a token', async () => {
      const token = sampleToken('wsp_1');
      await tx((t) => t.tokens.insert(token));
      await tx((t) => t.tokens.touch('wsp_1', token.id, at(30)));
      expect(await tx((t) => t.tokens.get(token.id))).toEqual({ ...token, lastUsedAt: at(30) });
    });

    it('finds a token only through its own account: never through another account', async () => {
      // Accounts whose ids no other test uses; each run gets workspaces of its own.
      const accountId = fc.stringMatching(/^acc_[0-9A-Za-z_-]{1,12}$/);
      let run = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.tuple(accountId, accountId).filter(([a, b]) => a !== b),
          async ([mine, other]) => {
            run++;
            const workspace = (accountId: string, n: number) => ({
              id: `wsp_p${run}_${n}`,
              accountId,
              slug: `p${run}-${n}`,
              name: 'P',
              createdAt: at(0),
            });
            const token = sampleToken(`wsp_p${run}_1`);
            await tx(async (t) => {
              await t.tenancy.insertWorkspace(workspace(mine, 1));
              await t.tenancy.insertWorkspace(workspace(other, 2));
              await t.tenancy.putMembership(membership(`wsp_p${run}_1`, token.userId, 'member', at(0)));
              await t.tokens.insert(token);
            });
            expect(await tx((t) => t.tokens.grantOf(token.hash, other))).toBeNull();
            expect(await tx((t) => t.tokens.getByHash(token.hash, other))).toBeNull();
            expect(await tx((t) => t.tokens.grantOf(token.hash, mine))).toEqual({
              token: credentialsOf(token),
              role: 'member',
              accountId: mine,
            });
            expect(await tx((t) => t.tokens.getByHash(token.hash, mine))).toEqual(token);
          },
        ),
        { numRuns: 15 },
      );
    });

    it('keeps finding a token issued before tokens carried their account, by its hash alone', async () => {
      const token = sampleToken('wsp_2');
      await tx((t) => t.tokens.insert(token, { routeByHash: true }));
      expect((await tx((t) => t.tokens.grantOf(token.hash, null)))?.accountId).toBe('acc_2');
      expect(await tx((t) => t.tokens.getByHash(token.hash, null))).toEqual(token);
      // And through its account, as any token of the account.
      expect((await tx((t) => t.tokens.grantOf(token.hash, 'acc_2')))?.token.id).toBe(token.id);
      expect(await tx((t) => t.tokens.grantOf(token.hash, 'acc_1'))).toBeNull();
      expect(await tx((t) => t.tokens.grantOf('unknown', null))).toBeNull();
    });

    it('finds, revokes and touches a token in its workspace only when told the workspace', async () => {
      const token = sampleToken('wsp_1');
      await tx((t) => t.tokens.insert(token));
      expect(await tx((t) => t.tokens.get(token.id, 'wsp_2'))).toBeNull();
      expect(await tx((t) => t.tokens.revoke(token.id, at(3), 'wsp_2'))).toBeNull();
      await tx((t) => t.tokens.touch('wsp_2', token.id, at(4)));
      expect(await tx((t) => t.tokens.get(token.id, 'wsp_1'))).toEqual(token);
      expect(await tx((t) => t.tokens.revoke(token.id, at(5), 'wsp_1'))).toEqual({
        ...token,
        revokedAt: at(5),
      });
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

    it('keeps one flash message per session, taken exactly once', async () => {
      const session = sampleSession();
      await tx((t) => t.sessions.insert(session));
      await tx((t) => t.sessions.setFlash(session.idHash, 'first'));
      await tx((t) => t.sessions.setFlash(session.idHash, 'second'));
      await tx((t) => t.sessions.setFlash('no-such-session', 'lost'));
      expect(await tx((t) => t.sessions.get(session.idHash))).toEqual(session);
      const takes = await Promise.all([1, 2, 3].map(() => tx((t) => t.sessions.takeFlash(session.idHash))));
      expect(takes.sort()).toEqual(['second', null, null].sort());
      expect(await tx((t) => t.sessions.takeFlash('no-such-session'))).toBeNull();
      await tx((t) => t.sessions.setFlash(session.idHash, 'third'));
      await tx((t) => t.sessions.delete(session.idHash));
      expect(await tx((t) => t.sessions.takeFlash(session.idHash))).toBeNull();
    });

    it('rolls back a taken flash with its transaction', async () => {
      const session = sampleSession();
      await tx((t) => t.sessions.insert(session));
      await tx((t) => t.sessions.setFlash(session.idHash, 'kept'));
      await expect(
        tx(async (t) => {
          await t.sessions.takeFlash(session.idHash);
          throw new Error('abort');
        }),
      ).rejects.toThrow('abort');
      expect(await tx((t) => t.sessions.takeFlash(session.idHash))).toBe('kept');
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
