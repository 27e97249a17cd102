import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryStorage } from '../../src/adapters/memory/index.js';
import { testPassword } from '../admin/form-client.js';
import { type EdgeServer, startEdgeServer } from '../ecosystem/support.js';
import { hasChromium, launchChromium, warnIfNoChromium } from '../support/chromium.js';
import { hashTestPassword } from '../support/password-cost.js';

warnIfNoChromium('browser prefix test');

describe.skipIf(!hasChromium)('the settings area under basePath /tracker/api/v1 in headless Chromium', () => {
  let browser: Browser;
  let server: EdgeServer;
  beforeAll(async () => {
    const storage = memoryStorage();
    server = await startEdgeServer('node', { storage, basePath: '/tracker/api/v1', rateLimit: false });
    const passwordHash = await hashTestPassword(testPassword);
    await storage.transaction(async (tx) => {
      const user = await tx.tenancy.getUserByEmail('admin@acme.test');
      if (user) await tx.tenancy.updateUser({ ...user, passwordHash });
    });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('signs in, moves between sections, creates and copies a token, and signs out, all under /tracker', async () => {
    const context = await browser.newContext();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    // Anything the pages ask for outside the prefix is a link the mount failed to move.
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (!path.startsWith('/tracker/')) problems.push(`requested ${path}`);
    });
    const pathname = () => new URL(page.url()).pathname;

    await page.goto(`${server.url}/tracker/acme/admin/members`);
    expect(pathname()).toBe('/tracker/sign-in');
    await page.getByLabel('Email').fill('admin@acme.test');
    await page.getByLabel('Password').fill(testPassword);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${server.url}/tracker/acme/admin/members`);
    // The browser keeps the session cookie for the prefix only.
    const cookies = await context.cookies();
    expect(cookies.map((cookie) => cookie.name)).toContain('ot_session');
    expect(cookies.map((cookie) => cookie.path)).toEqual(cookies.map(() => '/tracker'));

    const nav = page.getByRole('navigation', { name: 'Workspace settings' });
    for (const [name, path] of [
      ['Webhooks', '/tracker/acme/admin/webhooks'],
      ['Settings', '/tracker/acme/admin'],
      ['API tokens', '/tracker/acme/admin/api-tokens'],
    ] as const) {
      await nav.getByRole('link', { name }).click();
      await page.waitForURL(`${server.url}${path}`);
    }

    await page.getByLabel('Name').fill('under a prefix');
    await page.getByRole('button', { name: 'Create token' }).click();
    await page.getByRole('heading', { name: 'New token created' }).waitFor();
    const token = await page.getByLabel('Your new API token').inputValue();
    // The Copy button is shown by the page's script, which loaded from under the prefix.
    await page.getByRole('button', { name: 'Copy' }).click();
    await expect(page.evaluate<string>('navigator.clipboard.readText()')).resolves.toBe(token);
    const read = await fetch(`${server.url}/tracker/api/v1/projects`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(read.status).toBe(200);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${server.url}/tracker/sign-in`);
    // The session cookie is cleared where it was set (only the sign-in form's own cookie is left).
    expect((await context.cookies()).map((cookie) => cookie.name)).toEqual(['ot_signin']);
    expect(problems).toEqual([]);
    await context.close();
  });
});
