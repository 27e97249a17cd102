import { mkdirSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setPassword, testPassword } from '../admin/form-client.js';
import { hosts, newKey, startServer, type TestServer } from '../http/harness.js';
import { hasChromium, launchChromium, warnIfNoChromium } from '../support/chromium.js';

warnIfNoChromium('browser tests');
const artifacts = 'test-artifacts';
// Code run in the page is passed as strings: the test is compiled without the DOM's types.

describe.skipIf(!hasChromium)('the API-token page in headless Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
    mkdirSync(artifacts, { recursive: true });
  });
  afterAll(() => browser?.close());

  let server: TestServer;
  afterEach(() => server?.close());

  it.each(hosts)(
    'signs in, creates a read token, uses it against the API, revokes it, and the API refuses it (%s host)',
    async (host) => {
      server = await startServer(host);
      await setPassword(server, 'admin@acme.test');
      const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
      const page = await context.newPage();
      const consoleErrors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') consoleErrors.push(message.text());
      });

      // Signed out: the token page sends the browser to sign in, and back afterwards.
      await page.goto(`${server.url}/acme/admin/api-tokens`);
      expect(new URL(page.url()).pathname).toBe('/sign-in');
      await page.getByLabel('Email').fill('admin@acme.test');
      await page.getByLabel('Password').fill(testPassword);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(`${server.url}/acme/admin/api-tokens`);
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('API tokens · acme');

      // New token: a name and the read scope.
      await page.getByLabel('Name').fill('browser reader');
      await page.getByLabel('read (GET only)').check();
      await page.getByRole('button', { name: 'Create token' }).click();
      await page.getByRole('heading', { name: 'New token created' }).waitFor();
      const token = await page.getByLabel('Your new API token').inputValue();
      expect(token).toMatch(/^cn_[0-9A-Za-z_]{32,}$/);

      // The copy button is the page's only script: it appears and copies the token.
      const copy = page.getByRole('button', { name: 'Copy' });
      await copy.click();
      await page.getByText('Copied to the clipboard.').waitFor();
      await expect(page.evaluate<string>('navigator.clipboard.readText()')).resolves.toBe(token);
      await page.screenshot({ path: `${artifacts}/admin-token-created-${host}.png`, fullPage: true });

      // The token reads but may not write.
      expect((await server.api('GET', '/api/v1/issues', { token })).status).toBe(200);
      const write = await server.api('POST', '/api/v1/issues', {
        token,
        body: { projectId: server.ws.projectId, title: 'From the browser test' },
        headers: { 'idempotency-key': newKey() },
      });
      expect(write.status).toBe(403);

      // Back on the list, the token shows only its last four characters; Revoke it, after confirming.
      await page
        .getByRole('navigation', { name: 'Workspace settings' })
        .getByRole('link', { name: 'API tokens' })
        .click();
      await page.waitForURL(`${server.url}/acme/admin/api-tokens`);
      expect(await page.content()).not.toContain(token);
      await expect(page.getByText(`cn_…${token.slice(-4)}`).count()).resolves.toBe(1);
      await page.getByRole('link', { name: 'Revoke token browser reader' }).click();
      await page.getByRole('button', { name: 'Revoke token' }).click();
      await page.getByText('Token "browser reader" was revoked.').waitFor();
      await expect(page.getByRole('link', { name: 'Revoke token browser reader' }).count()).resolves.toBe(0);

      const refused = await server.api('GET', '/api/v1/issues', { token });
      expect({ status: refused.status, error: refused.json?.error }).toEqual({
        status: 401,
        error: 'unauthorized',
      });

      await page.screenshot({ path: `${artifacts}/admin-tokens-list-${host}.png`, fullPage: true });

      // Readable on a phone: the table turns into one card per token, with no sideways scrolling.
      await page.setViewportSize({ width: 375, height: 812 });
      const overflow = await page.evaluate<number>(
        'document.documentElement.scrollWidth - window.innerWidth',
      );
      expect(overflow).toBeLessThanOrEqual(0);
      await page.screenshot({ path: `${artifacts}/admin-tokens-phone-${host}.png`, fullPage: true });

      // The Content-Security-Policy blocked nothing the pages needed.
      expect(consoleErrors).toEqual([]);
      await context.close();
    },
  );
});
