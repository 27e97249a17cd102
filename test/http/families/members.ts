import { expect, it } from 'vitest';
import { tenancy } from '../../../src/core/index.js';
import { newKey } from '../harness.js';
import { expectJson, expectProblem, issuePaths, type Json } from './answers.js';
import { idsOf, pageToEnd } from './paging.js';
import { signalTypesOf } from './signals.js';
import { client, describeThrough, type Target } from './support.js';

const dayMs = 24 * 60 * 60 * 1000;

/** The members API: a workspace's users and their roles, for workspace admins only. */
export function runMemberSuite(target: Target): void {
  describeThrough(target, 'members', (server) => {
    it('lists the workspace’s members newest first with email, role, activity and live token count', async () => {
      const s = server();
      const http = client(s);
      const page = await http.list('/members');
      expect(page.total).toBe(3);
      expect(page.data.map((m: { email: string }) => m.email).sort()).toEqual([
        'admin@acme.test',
        'member@acme.test',
        'viewer@acme.test',
      ]);
      // Newest first, ties by id descending in code-unit order (as the databases compare text).
      const key = (m: Json) => `${m.createdAt} ${m.id}`;
      const newestFirst = [...page.data].sort((a: Json, b: Json) => (key(a) < key(b) ? 1 : -1));
      expect(page.data).toEqual(newestFirst);
      const byEmail = (email: string) => page.data.find((m: Json) => m.email === email);
      const admin = byEmail('admin@acme.test');
      expect(admin).toEqual({
        id: s.ws.adminUserId,
        userId: s.ws.adminUserId,
        email: 'admin@acme.test',
        role: 'admin',
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        version: 1,
        // The listing request itself used the admin's token.
        lastActiveAt: new Date(s.clock.now()).toISOString(),
        tokenCount: 2,
      });
      expect(byEmail('viewer@acme.test')).toMatchObject({
        role: 'viewer',
        lastActiveAt: null,
        tokenCount: 1,
      });
      const viewers = await http.list('/members?role=viewer');
      expect(viewers.total).toBe(1);
      expect(idsOf(viewers)).toEqual([s.tokens.viewer.userId]);
      expect(issuePaths(await http.get('/members?role=owner'), 'query')).toEqual(['role']);
    });

    it('pages members by keyset with a stable total', async () => {
      const s = server();
      for (let i = 0; i < 4; i++) await client(s).create('/members', { email: `m${i}@acme.test` });
      const ids = await pageToEnd(s, '/members', 2);
      expect(ids).toHaveLength(7);
      expect(new Set(ids).size).toBe(7);
    });

    it('adds a member by email, idempotently, and refuses one already there', async () => {
      const s = server();
      const http = client(s);
      const key = newKey();
      const body = { email: 'new@acme.test', role: 'viewer' };
      const types = await signalTypesOf(s, async () => {
        const first = await http.post('/members', body, { key });
        const created = expectJson(first, 201);
        expect(created).toMatchObject({ email: 'new@acme.test', role: 'viewer', version: 1, tokenCount: 0 });
        expect(created.id).toMatch(/^usr_/);
        expect(first.headers.get('etag')).toBe('"1"');
        const replay = await http.post('/members', body, { key });
        expect(expectJson(replay, 200)).toEqual(created);
        expect(replay.headers.get('idempotent-replayed')).toBe('true');
      });
      expect(types).toEqual(['member.created']);
      const again = expectProblem(
        await http.post('/members', { email: 'NEW@acme.test' }),
        409,
        'already_member',
      );
      expect(again.memberId).toMatch(/^usr_/);
      expect(expectJson(await http.post('/members', { email: 'default@acme.test' }), 201).role).toBe(
        'member',
      );
      expect(issuePaths(await http.post('/members', { email: 'not an email' }))).toEqual(['email']);
      expect(issuePaths(await http.post('/members', { email: 'x@acme.test', role: 'owner' }))).toEqual([
        'role',
      ]);
    });

    it('gets one member with an ETag, and 404 for a user of another workspace', async () => {
      const s = server();
      const http = client(s);
      const res = await http.get(`/members/${s.tokens.member.userId}`);
      expect(expectJson(res, 200)).toMatchObject({ email: 'member@acme.test', role: 'member' });
      expect(res.headers.get('etag')).toBe('"1"');
      expect(
        (await http.get(`/members/${s.tokens.member.userId}`, s.tokens.admin, { 'If-None-Match': '"1"' }))
          .status,
      ).toBe(304);
      expectProblem(await http.get(`/members/${s.other.adminUserId}`), 404, 'not_found');
      expectProblem(await http.get('/members/usr_nobody'), 404, 'not_found');
    });

    it('is for workspace admins only: members and viewers get 403, a read token may only look', async () => {
      const s = server();
      const http = client(s);
      expectProblem(await http.get('/members', s.tokens.member.plain), 403, 'forbidden');
      expectProblem(await http.get('/members', s.tokens.viewer.plain), 403, 'forbidden');
      expectJson(await http.get('/members', s.tokens.read.plain), 200);
      const res = await http.post('/members', { email: 'r@acme.test' }, { token: s.tokens.read.plain });
      expectProblem(res, 403, 'insufficient_scope');
    });

    it('changes a role with If-Match: 428 without, 409 when stale, a signal with the old role', async () => {
      const s = server();
      const http = client(s);
      const path = `/members/${s.tokens.member.userId}`;
      expectProblem(await http.patch(path, { role: 'admin' }, null), 428, 'precondition_required');
      const types = await signalTypesOf(s, async () => {
        const res = await http.patch(path, { role: 'admin' }, '"1"');
        expect(expectJson(res, 200)).toMatchObject({ role: 'admin', version: 2 });
        expect(res.headers.get('etag')).toBe('"2"');
      });
      expect(types).toEqual(['member.updated']);
      const stale = await http.patch(path, { role: 'viewer' }, '"1"');
      expectProblem(stale, 409, 'version_conflict');
      expect(stale.headers.get('etag')).toBe('"2"');
      // A PATCH that changes nothing writes nothing.
      expect(expectJson(await http.patch(path, { role: 'admin' }, '"2"'), 200).version).toBe(2);
      expect(issuePaths(await http.patch(path, { role: 'owner' }, '"2"'))).toEqual(['role']);
    });

    it('applies a demotion and a removal to the member’s token on the very next request', async () => {
      const s = server();
      const http = client(s);
      const member = s.tokens.member;
      const project = { name: 'Hermes' };
      expectJson(await http.post('/projects', project, { token: member.plain }), 201);
      expectJson(await http.patch(`/members/${member.userId}`, { role: 'viewer' }, '"1"'), 200);
      expectProblem(await http.post('/projects', project, { token: member.plain }), 403, 'forbidden');
      expectJson(await http.get('/projects', member.plain), 200);
      expect((await http.remove(`/members/${member.userId}`, '"2"')).status).toBe(204);
      const gone = expectProblem(await http.get('/projects', member.plain), 401, 'unauthorized');
      expect(gone.detail).toMatch(/revoked/);
      expectProblem(await http.get(`/members/${member.userId}`), 404, 'not_found');
      // Added back, the user starts afresh: the old token stays dead.
      expectJson(await http.post('/members', { email: 'member@acme.test' }), 201);
      expectProblem(await http.get('/projects', member.plain), 401, 'unauthorized');
    });

    it('never demotes or removes the last admin (409 last_admin), but does once there is another', async () => {
      const s = server();
      const http = client(s);
      const self = `/members/${s.ws.adminUserId}`;
      const types = await signalTypesOf(s, async () => {
        expectProblem(await http.patch(self, { role: 'member' }, '"1"'), 409, 'last_admin');
        expectProblem(await http.remove(self), 409, 'last_admin');
      });
      expect(types).toEqual([]);
      expectJson(await http.patch(`/members/${s.tokens.member.userId}`, { role: 'admin' }, '"1"'), 200);
      expect(expectJson(await http.patch(self, { role: 'member' }, '"1"'), 200).role).toBe('member');
      // The admin token now acts as a member; the new admin cannot remove themselves either.
      const newAdmin = s.tokens.member.plain;
      expectProblem(
        await http.remove(`/members/${s.tokens.member.userId}`, null, newAdmin),
        409,
        'last_admin',
      );
    });

    it('deletes with an optional If-Match: 409 when stale, and signals member.deleted', async () => {
      const s = server();
      const http = client(s);
      const path = `/members/${s.tokens.viewer.userId}`;
      expectProblem(await http.remove(path, '"7"'), 409, 'version_conflict');
      const types = await signalTypesOf(s, async () => {
        expect((await http.remove(path, '"1"')).status).toBe(204);
      });
      expect(types).toEqual(['member.deleted']);
      expectProblem(await http.remove(path), 404, 'not_found');
      expect((await http.list('/members')).total).toBe(2);
    });

    it("reports no activity of the user elsewhere: a sign-in (the user's, in no workspace) does not count", async () => {
      const s = server();
      const http = client(s);
      const viewer = s.tokens.viewer;
      // The user signs in (to the admin pages of any workspace they belong to, another tenant's
      // too): what a workspace that added them by email must not learn.
      await s.storage.transaction(async (tx) => {
        const user = await tx.tenancy.getUser(viewer.userId);
        if (!user) throw new Error('no such user');
        await tx.tenancy.updateUser({ ...user, lastSignInAt: new Date(s.clock.now()).toISOString() });
      });
      const member = expectJson(await http.get(`/members/${viewer.userId}`), 200);
      expect(member).toMatchObject({ lastActiveAt: null });
    });

    it('counts only live tokens, and reports the latest token use as last activity', async () => {
      const s = server();
      const http = client(s);
      const viewer = s.tokens.viewer;
      await s.issueToken(viewer.userId, 'read');
      s.clock.advance(dayMs);
      expectJson(await http.get('/projects', viewer.plain), 200);
      const used = new Date(s.clock.now()).toISOString();
      await s.storage.transaction((tx) => tx.tokens.revoke(viewer.id, used));
      const member = expectJson(await http.get(`/members/${viewer.userId}`), 200);
      expect(member).toMatchObject({ tokenCount: 1, lastActiveAt: used });
    });
  });

  describeThrough(target, 'token expiry', (server) => {
    it('refuses a token from the moment it expires with 401 unauthorized saying it expired', async () => {
      const s = server();
      const issued = await s.storage.transaction((tx) =>
        tenancy.issueToken(
          { tx, ids: s.tracker.ids, now: s.clock.now() },
          {
            workspaceId: s.ws.workspaceId,
            userId: s.ws.adminUserId,
            name: 'week',
            scope: 'read',
            expiresInDays: 7,
          },
        ),
      );
      expect(issued.token.expiresAt).toBe(new Date(s.clock.now() + 7 * dayMs).toISOString());
      s.clock.advance(7 * dayMs - 1);
      expectJson(await client(s).get('/projects', issued.plain), 200);
      s.clock.advance(1);
      const res = await client(s).get('/projects', issued.plain);
      const problem = expectProblem(res, 401, 'unauthorized');
      expect(problem.detail).toMatch(/expired/);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
      // The admin's own token never expires.
      expectJson(await client(s).get('/projects'), 200);
    });
  });
}
