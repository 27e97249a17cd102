import { mkdirSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { computeSignature } from '../../src/core/webhooks/signature.js';
import { nodeWebhookSender } from '../../src/http/webhook-sender.js';
import { setPassword, testPassword } from '../admin/form-client.js';
import { newKey, startServer, type TestServer } from '../http/harness.js';
import { hasChromium, launchChromium, warnIfNoChromium } from '../support/chromium.js';
import { recordingReceiver } from '../webhooks/recording-receiver.js';

warnIfNoChromium('browser tests');
const artifacts = 'test-artifacts/admin';
const widths = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;
// Code run in the page is passed as strings: the test is compiled without the DOM's types.

describe.skipIf(!hasChromium)('the workspace settings pages in headless Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
    mkdirSync(artifacts, { recursive: true });
  });
  afterAll(() => browser?.close());

  let server: TestServer;
  let context: BrowserContext;
  let consoleErrors: string[];
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    // The Content-Security-Policy blocked nothing the pages needed.
    expect(consoleErrors).toEqual([]);
    await context?.close();
    await server?.close();
    for (const close of closers.splice(0)) await close();
  });

  async function open(): Promise<Page> {
    server = await startServer('node', {
      rateLimit: false,
      webhooks: { sender: nodeWebhookSender(), allowPrivateTargets: true },
    });
    await setPassword(server, 'admin@acme.test');
    context = await browser.newContext({ viewport: widths.desktop });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    const page = await context.newPage();
    consoleErrors = [];
    page.on('console', (message) => {
      // An error status the test provokes on purpose (a 409 for the last admin) is asserted where it
      // happens; what must stay empty is everything else, such as a blocked script or style.
      const provoked = /^Failed to load resource: the server responded with a status of 4\d\d/;
      if (message.type() === 'error' && !provoked.test(message.text())) consoleErrors.push(message.text());
    });
    return page;
  }

  async function signIn(page: Page) {
    await page.goto(`${server.url}/sign-in`);
    await page.getByLabel('Email').fill('admin@acme.test');
    await page.getByLabel('Password').fill(testPassword);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${server.url}/acme/admin`);
  }

  /** Screenshots at desktop and phone widths; on the phone nothing may scroll sideways. */
  async function shoot(page: Page, name: string) {
    await page.setViewportSize(widths.desktop);
    await page.screenshot({ path: `${artifacts}/${name}-desktop.png`, fullPage: true });
    await page.setViewportSize(widths.phone);
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    expect(overflow, `${name} scrolls sideways on a phone`).toBeLessThanOrEqual(0);
    // Nor does any part of it, the tab bar included (it wraps instead).
    const scrollers = await page.evaluate<string[]>(
      "[...document.querySelectorAll('body *')].filter((e) => e.scrollWidth > e.clientWidth + 1 && " +
        "['auto', 'scroll'].includes(getComputedStyle(e).overflowX) && e.tagName !== 'PRE').map((e) => e.tagName + '.' + e.className)",
    );
    expect(scrollers, `${name} has parts that scroll sideways on a phone`).toEqual([]);
    await page.screenshot({ path: `${artifacts}/${name}-phone.png`, fullPage: true });
    await page.setViewportSize(widths.desktop);
  }

  const api = (token: string, method = 'GET', path = '/api/v1/projects', body?: unknown) =>
    server.api(method, path, {
      token,
      ...(body ? { body, headers: { 'idempotency-key': newKey() } } : {}),
    });

  it('signs in to the settings home, makes a token that a reload does not repeat, and revokes it after asking', async () => {
    const page = await open();
    await page.goto(`${server.url}/sign-in`);
    await shoot(page, 'sign-in');
    await signIn(page);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Settings · acme');
    await shoot(page, 'home');

    await page
      .getByRole('navigation', { name: 'Workspace settings' })
      .getByRole('link', { name: 'API tokens' })
      .click();
    await page.waitForURL(`${server.url}/acme/admin/api-tokens`);
    await page.getByLabel('Name').fill('deploy bot');
    await page.getByLabel('read_write (read and change data)').check();
    await page.getByLabel('Expires').selectOption('7');
    await page.getByRole('button', { name: 'Create token' }).click();
    await page.getByRole('heading', { name: 'New token created' }).waitFor();
    expect(new URL(page.url()).search).toMatch(/^\?created=tok_/);
    const token = await page.getByLabel('Your new API token').inputValue();
    expect(token).toMatch(/^cn_[0-9A-Za-z_]{32,}$/);
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByText('Copied to the clipboard.').waitFor();
    await shoot(page, 'token-created');
    const count = () => server.storage.transaction((tx) => tx.tokens.list(server.ws.workspaceId));
    const before = (await count()).length;

    // Reloading the page the form redirected to neither makes a token nor shows it again.
    await page.reload();
    await page.getByText('Its value was shown once').waitFor();
    expect(await page.content()).not.toContain(token);
    expect((await count()).length).toBe(before);
    expect((await api(token)).status).toBe(200);

    await page.getByRole('link', { name: 'Revoke token deploy bot' }).click();
    await page.getByRole('heading', { name: 'Revoke token deploy bot?' }).waitFor();
    await shoot(page, 'token-revoke-confirm');
    // Asking changed nothing yet.
    expect((await api(token)).status).toBe(200);
    await page.getByRole('button', { name: 'Revoke token' }).click();
    await page.getByText('Token "deploy bot" was revoked.').waitFor();
    await shoot(page, 'tokens');
    const refused = await api(token);
    expect({ status: refused.status, error: refused.json?.error }).toEqual({
      status: 401,
      error: 'unauthorized',
    });

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${server.url}/sign-in`);
  });

  it('demotes and then removes a member whose token is in use: the next API calls answer 403, then 401', async () => {
    const page = await open();
    await signIn(page);
    const member = server.tokens.member;
    expect((await api(member.plain, 'POST', '/api/v1/projects', { name: 'Before' })).status).toBe(201);

    await page
      .getByRole('navigation', { name: 'Workspace settings' })
      .getByRole('link', { name: 'Members' })
      .click();
    await page.waitForURL(`${server.url}/acme/admin/members`);
    await page.getByLabel('Email').fill('grace@acme.test');
    await page.getByLabel('Role', { exact: true }).selectOption('viewer');
    await page.getByRole('button', { name: 'Add member' }).click();
    await page.getByText('grace@acme.test was added.').waitFor();
    // On a desktop each role's Save button sits beside its select, not under it.
    const select = await page.getByRole('combobox', { name: 'Role of member@acme.test' }).boundingBox();
    const save = await page.getByRole('button', { name: 'Save role of member@acme.test' }).boundingBox();
    expect(
      save && select && Math.abs(save.y + save.height / 2 - (select.y + select.height / 2)),
    ).toBeLessThan(4);
    await shoot(page, 'members');

    await page.getByLabel('Role of member@acme.test', { exact: true }).selectOption('viewer');
    await page.getByRole('button', { name: 'Save role of member@acme.test' }).click();
    await page.getByText("member@acme.test's role was changed.").waitFor();
    const demoted = await api(member.plain, 'POST', '/api/v1/projects', { name: 'After demotion' });
    expect({ status: demoted.status, error: demoted.json?.error }).toEqual({
      status: 403,
      error: 'forbidden',
    });
    expect((await api(member.plain)).status).toBe(200);

    await page.getByRole('link', { name: 'Remove member@acme.test' }).click();
    await page.getByRole('heading', { name: 'Remove member@acme.test?' }).waitFor();
    await shoot(page, 'member-remove-confirm');
    await page.getByRole('button', { name: 'Remove member' }).click();
    await page.getByText('member@acme.test was removed').waitFor();
    const removed = await api(member.plain);
    expect({ status: removed.status, error: removed.json?.error }).toEqual({
      status: 401,
      error: 'unauthorized',
    });

    // The last admin stays: demoting them is refused with a message on the page.
    await page.getByLabel('Role of admin@acme.test', { exact: true }).selectOption('member');
    await page.getByRole('button', { name: 'Save role of admin@acme.test' }).click();
    await page
      .getByRole('alert')
      .getByText(/last admin/)
      .waitFor();
  });

  it('creates a webhook whose test delivery arrives signed, and redelivers a failed delivery once the receiver recovers', async () => {
    const hook = await recordingReceiver();
    closers.push(hook.close);
    const page = await open();
    await signIn(page);
    await page
      .getByRole('navigation', { name: 'Workspace settings' })
      .getByRole('link', { name: 'Webhooks' })
      .click();
    await page.waitForURL(`${server.url}/acme/admin/webhooks`);
    await page.getByLabel('Endpoint URL').fill(hook.url);
    await page.getByLabel('Description (optional)').fill('Deploy notifier');
    await page.getByLabel('issue.created').check();
    await page.getByRole('button', { name: 'Create webhook' }).click();
    await page.getByRole('heading', { name: 'Signing secret' }).waitFor();
    const secret = await page.getByRole('textbox', { name: 'Signing secret' }).inputValue();
    expect(secret).toMatch(/^whsec_/);
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByText('Copied to the clipboard.').waitFor();

    await page.getByRole('button', { name: 'Send test event' }).click();
    await page.getByText(/Test event delivered: the endpoint answered 200/).waitFor();
    expect(hook.received).toHaveLength(1);
    const signature = String(hook.received[0]?.headers['x-service-signature']);
    expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    // Signed with the secret the page showed once.
    const [, stamp] = /^t=(\d+)/.exec(signature) ?? [];
    expect(signature).toBe(
      `t=${stamp},v1=${await computeSignature(secret, Number(stamp), hook.received[0]?.body ?? '')}`,
    );

    // A real event, while the receiver fails.
    hook.answer(500);
    expect(
      (
        await api(server.tokens.admin, 'POST', '/api/v1/issues', {
          projectId: server.ws.projectId,
          title: 'Broken build',
        })
      ).status,
    ).toBe(201);
    await server.tracker.webhooks.dispatchDue();
    expect(hook.received).toHaveLength(2);
    await page.reload();
    await shoot(page, 'webhook');

    await page.getByRole('link', { name: 'webhook.test' }).click();
    await page.getByRole('heading', { name: 'Delivery of webhook.test' }).waitFor();
    await expect(page.getByLabel('Request body as sent').textContent()).resolves.toBe(hook.received[0]?.body);
    // The detail shows the request as sent, its signature header included.
    expect(await page.locator('main').textContent()).toContain(`X-Service-Signature: ${signature}`);
    await shoot(page, 'delivery-test');
    await page.goBack();

    await page.getByRole('link', { name: 'issue.created' }).click();
    await page.getByRole('heading', { name: 'Delivery of issue.created' }).waitFor();
    await page.getByText('retrying').first().waitFor();
    hook.answer(200);
    await page.getByRole('button', { name: 'Redeliver' }).click();
    await page.getByText('Queued again').waitFor();
    await server.tracker.webhooks.dispatchDue();
    expect(hook.received).toHaveLength(3);
    expect(hook.received[2]?.body).toBe(hook.received[1]?.body);
    await page.reload();
    await page.getByText('delivered', { exact: true }).first().waitFor();
    await shoot(page, 'delivery');

    await page.getByRole('link', { name: /Back to the webhook/ }).click();
    await page.getByRole('link', { name: 'Delete…' }).click();
    await page.getByRole('heading', { name: 'Delete webhook?' }).waitFor();
    await page.getByRole('button', { name: 'Delete webhook' }).click();
    await page.getByText(/was deleted/).waitFor();
    await shoot(page, 'webhooks');
  });
});
