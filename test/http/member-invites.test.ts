import { afterEach, describe, expect, it } from 'vitest';
import { inviteLifetimeMs } from '../../src/core/tenancy/invites.js';
import { FormClient, setPassword, testPassword } from '../admin/form-client.js';
import { adaptersUnderTest } from '../support/adapters.js';
import { hosts, newKey, startServer, type TestServer } from './harness.js';

/**
 * `POST /api/v1/members/invites` through both hosts on every adapter: an admin gets a one-time
 * link (the members page's), with which the member sets a password once; others are refused.
 */
for (const adapter of adaptersUnderTest) {
  for (const host of hosts) {
    describe(`POST /api/v1/members/invites through the ${host} host on ${adapter.name} storage`, () => {
      let s: TestServer;
      afterEach(async () => {
        await s?.close();
      });

      const invite = (token: string, body: unknown, key = newKey()) =>
        s.api('POST', '/api/v1/members/invites', { token, body, headers: { 'Idempotency-Key': key } });

      it('answers an admin 201 with a link that sets a password once; a second use is refused', async () => {
        s = await startServer(host, { storage: await adapter.create(), rateLimit: false });
        const key = newKey();
        const made = await invite(s.tokens.admin, { email: 'ada@acme.test', role: 'viewer' }, key);
        expect(made.status, made.text).toBe(201);
        const port = new URL(s.url).port;
        expect(made.json).toEqual({
          memberId: expect.stringMatching(/^usr_/),
          email: 'ada@acme.test',
          role: 'viewer',
          inviteUrl: expect.stringMatching(
            new RegExp(`^http://127\\.0\\.0\\.1:${port}/invite/[A-Za-z0-9_-]{43}$`),
          ),
          expiresAt: new Date(s.clock.now() + inviteLifetimeMs).toISOString(),
        });
        const { memberId, inviteUrl } = made.json;

        // A member at once, without a password; the addition signals as POST /members does.
        const member = await s.api('GET', `/api/v1/members/${memberId}`, { token: s.tokens.admin });
        expect(member.json).toMatchObject({ email: 'ada@acme.test', role: 'viewer' });
        const signals = await s.storage.transaction((tx) =>
          tx.signals.list({ accountId: s.ws.accountId, limit: 100 }),
        );
        expect(signals.map((e) => e.type)).toContain('member.created');

        // A replay answers the stored result without the link: only its hash is kept.
        const replayed = await invite(s.tokens.admin, { email: 'ada@acme.test', role: 'viewer' }, key);
        expect(replayed.status).toBe(200);
        expect(replayed.headers.get('idempotent-replayed')).toBe('true');
        expect(replayed.json).toEqual({ ...made.json, inviteUrl: null });

        // The link is the members page's: it sets the password once, then signs the member in.
        const path = new URL(inviteUrl).pathname;
        const guest = new FormClient(s.url);
        expect((await guest.get(path)).status).toBe(200);
        const set = await guest.post(path, { password: 'a long password', confirm: 'a long password' });
        expect(set.status).toBe(303);
        expect(set.location).toBe('/sign-in?invited=ada%40acme.test');
        expect((await guest.signIn('ada@acme.test', 'a long password')).status).toBe(303);

        const again = await new FormClient(s.url).post(path, {
          password: 'another password',
          confirm: 'another password',
        });
        expect(again.status).toBe(404);
        expect(again.text).toContain('Invite link not valid');
        expect((await new FormClient(s.url).signIn('ada@acme.test', 'another password')).status).not.toBe(
          303,
        );

        // Now that they have a password, a new invite is refused, as the page refuses it.
        const refused = await invite(s.tokens.admin, { email: 'ada@acme.test', role: 'viewer' });
        expect(refused.status).toBe(409);
        expect(refused.json.error).toBe('has_password');
      });

      it('refuses members, viewers and read tokens with 403, and makes nobody', async () => {
        s = await startServer(host, { storage: await adapter.create(), rateLimit: false });
        for (const token of [s.tokens.member.plain, s.tokens.viewer.plain, s.tokens.read.plain]) {
          const res = await invite(token, { email: 'eve@acme.test', role: 'admin' });
          expect(res.status).toBe(403);
          expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        }
        const user = await s.storage.transaction((tx) => tx.tenancy.getUserByEmail('eve@acme.test'));
        expect(user).toBeNull();
      });

      it('refuses a user who already has a password, and needs an Idempotency-Key', async () => {
        s = await startServer(host, { storage: await adapter.create(), rateLimit: false });
        await setPassword(s, 'member@acme.test', testPassword);
        const refused = await invite(s.tokens.admin, { email: 'member@acme.test', role: 'member' });
        expect(refused.status).toBe(409);
        expect(refused.json.error).toBe('has_password');
        const keyless = await s.api('POST', '/api/v1/members/invites', {
          token: s.tokens.admin,
          body: { email: 'new@acme.test' },
        });
        expect(keyless.status).toBe(400);
        expect(keyless.json.error).toBe('idempotency_key_missing');
      });
    });
  }
}
