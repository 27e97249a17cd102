import { afterEach, describe, expect, it } from 'vitest';
import { inviteLifetimeMs, openInvite } from '../../src/core/tenancy/invites.js';
import { type Host, startServer, type TestServer } from '../http/harness.js';
import { csrfOf, FormClient, setPassword, testPassword } from './form-client.js';

const hosts: Host[] = ['node', 'hono'];

for (const host of hosts) {
  describe(`invites from the members page (${host} host)`, () => {
    let server: TestServer;
    afterEach(async () => {
      await server?.close();
    });

    /** Signs the workspace admin in; answers the browser and a way to invite from the members page. */
    async function adminBrowser() {
      server = await startServer(host, { rateLimit: false });
      await setPassword(server, 'admin@acme.test');
      const admin = new FormClient(server.url);
      expect((await admin.signIn('admin@acme.test', testPassword, '/acme/admin/members')).status).toBe(303);
      const invite = async (email: string, role = 'admin') => {
        const page = await admin.get('/acme/admin/members');
        return admin.post('/acme/admin/members/invite', { csrf: csrfOf(page), email, role });
      };
      return { admin, invite };
    }
    const linkOf = (text: string) => /href="(\/invite\/[A-Za-z0-9_-]{43})"/.exec(text)?.[1] ?? '';

    it('points the add form’s hint at the invite form where it is: above it', async () => {
      const { admin } = await adminBrowser();
      const page = (await admin.get('/acme/admin/members')).text;
      const inviteForm = page.indexOf('id="invite-heading"');
      const hint = page.indexOf('invite them with the form above');
      expect(inviteForm).toBeGreaterThan(-1);
      expect(hint).toBeGreaterThan(inviteForm);
      expect(page).not.toContain('below');
    });

    it('makes a one-time link with which the new member sets a password and signs in; no email is sent', async () => {
      const { invite } = await adminBrowser();
      const made = await invite('new@acme.test');
      expect(made.status).toBe(201);
      expect(made.text).toContain('Invite link for new@acme.test');
      expect(made.text).toContain('no email is sent');
      const link = linkOf(made.text);
      expect(link).not.toBe('');
      // Added at once, without a password, as the API lists members.
      const members = await server.api('GET', '/api/v1/members', { token: server.tokens.admin });
      expect(members.json?.data).toContainEqual(
        expect.objectContaining({ email: 'new@acme.test', role: 'admin' }),
      );

      const guest = new FormClient(server.url);
      const form = await guest.get(link);
      expect(form.status).toBe(200);
      expect(form.text).toContain('new@acme.test');
      expect((await guest.post(link, { password: 'short', confirm: 'short' })).status).toBe(400);
      expect((await guest.post(link, { password: 'a long password', confirm: 'another one' })).status).toBe(
        400,
      );
      const set = await guest.post(link, { password: 'a long password', confirm: 'a long password' });
      expect(set.status).toBe(303);
      expect(set.location).toBe('/sign-in?invited=new%40acme.test');
      expect((await guest.signIn('new@acme.test', 'a long password', '/acme/admin')).status).toBe(303);
      expect((await guest.get('/acme/admin')).status).toBe(200);

      // Single use: the link is gone, and answers a page saying so.
      for (const again of [
        await new FormClient(server.url).get(link),
        await guest.post(link, { password: 'x' }),
      ]) {
        expect(again.status).toBe(404);
        expect(again.text).toContain('Invite link not valid');
      }
    });

    it('expires after a week, and its secret signs nobody in as a session cookie', async () => {
      const { invite } = await adminBrowser();
      const link = linkOf((await invite('late@acme.test')).text);
      const token = link.slice('/invite/'.length);
      const forger = new FormClient(server.url);
      forger.cookies.set('ot_session', token);
      const denied = await forger.get('/acme/admin');
      expect(denied.status).toBe(303);
      expect(denied.location).toMatch(/^\/sign-in/);

      expect((await new FormClient(server.url).get(link)).status).toBe(200);
      server.clock.advance(inviteLifetimeMs);
      expect((await new FormClient(server.url).get(link)).status).toBe(404);
      const user = await server.storage.transaction((tx) => openInvite(tx, token, server.clock.now()));
      expect(user).toBeNull();
    });

    it('refuses someone who already has a password: they sign in with it', async () => {
      const { invite } = await adminBrowser();
      const refused = await invite('admin@acme.test');
      expect(refused.status).toBe(409);
      expect(refused.text).toContain('admin@acme.test already has a password');
      expect(linkOf(refused.text)).toBe('');
    });
  });
}
