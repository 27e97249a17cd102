import { afterEach, describe, expect, it } from 'vitest';
import { type Host, newKey, startServer, type TestServer } from '../http/harness.js';
import { FormClient, setPassword, testPassword } from './form-client.js';

const hosts: Host[] = ['node', 'hono'];

for (const host of hosts) {
  describe(`pages outside the API (${host} host)`, () => {
    let server: TestServer;
    afterEach(async () => {
      await server?.close();
    });

    it('GET / is a small landing page linking the docs, the sign-in and the probes', async () => {
      server = await startServer(host, { rateLimit: false });
      const answer = await fetch(`${server.url}/`);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const page = await answer.text();
      for (const link of [
        '/docs',
        '/docs/guide',
        '/api/v1/openapi.json',
        '/sign-in',
        '/healthz',
        '/readyz',
      ]) {
        expect(page).toContain(`href="${link}"`);
      }
      // The admin layout: its stylesheet, and the security headers of every page.
      expect(page).toContain('/admin.css');
      expect(answer.headers.get('content-security-policy')).toContain("default-src 'none'");
      for (const link of ['/docs', '/docs/guide', '/healthz']) {
        expect((await fetch(`${server.url}${link}`)).status, link).toBe(200);
      }
    });

    it("the guide's examples name the server's own origin, and it links no file the server lacks", async () => {
      server = await startServer(host, { rateLimit: false });
      const page = await (await fetch(`${server.url}/docs/guide`)).text();
      expect(page).toContain(`${server.url}/api/v1/issues`);
      expect(page).not.toContain('127.0.0.1:3000');
      // The page is /docs/guide: a relative link to client.md was /docs/client.md, a 404.
      expect(page).not.toMatch(/href="[\w-]+\.md/);
      expect(page).toContain('<code>docs/client.md</code>');
      const forged = await fetch(`${server.url}/docs/guide`, { headers: { host: '<x>' } }).then((r) =>
        r.text(),
      );
      expect(forged).not.toContain('<x>');
    });

    it('a mistyped page answers a 404 page in the admin layout; the API keeps problem+json', async () => {
      server = await startServer(host, { rateLimit: false });
      for (const path of ['/acme/admn', '/acme/admin/tokens', '/docs/nope', '/favicon.txt']) {
        const answer = await fetch(`${server.url}${path}`);
        expect(answer.status, path).toBe(404);
        expect(answer.headers.get('content-type'), path).toBe('text/html; charset=utf-8');
        const page = await answer.text();
        expect(page).toContain('<h1>Page not found</h1>');
        expect(page).toContain('href="/"');
        expect(page).toContain('href="/sign-in"');
      }
      for (const path of ['/api/v1/nope', '/api/v1/projects/prj_missing']) {
        const answer = await fetch(`${server.url}${path}`, {
          headers: { authorization: `Bearer ${server.tokens.admin}` },
        });
        expect(answer.status, path).toBe(404);
        expect(answer.headers.get('content-type'), path).toBe('application/problem+json; charset=utf-8');
        expect(((await answer.json()) as { error: string }).error).toBe('not_found');
      }
    });

    it('offers no "Remove…" for the last admin, and offers it again once there is another', async () => {
      server = await startServer(host, { rateLimit: false });
      await setPassword(server, 'admin@acme.test');
      const browser = new FormClient(server.url);
      expect((await browser.signIn('admin@acme.test', testPassword, '/acme/admin/members')).status).toBe(303);
      const memberships = await server.storage.transaction((tx) =>
        tx.tenancy.listMemberships(server.ws.workspaceId),
      );
      const admins = memberships.filter((m) => m.role === 'admin');
      expect(admins).toHaveLength(1);
      const alone = (await browser.get('/acme/admin/members')).text;
      expect(alone).not.toContain('aria-label="Remove admin@acme.test"');
      expect(alone).toContain('Last admin');

      const added = await server.api('POST', '/api/v1/members', {
        token: server.tokens.admin,
        body: { email: 'second@acme.test', role: 'admin' },
        headers: { 'idempotency-key': newKey() },
      });
      expect(added.status).toBe(201);
      const two = (await browser.get('/acme/admin/members')).text;
      expect(two).toContain('aria-label="Remove admin@acme.test"');
      expect(two).toContain('aria-label="Remove second@acme.test"');
      expect(two).not.toContain('Last admin');
    });
  });
}
