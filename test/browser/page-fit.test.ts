import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventTypes } from '../../src/core/families/events.js';
import { nodeWebhookSender } from '../../src/http/webhook-sender.js';
import { setPassword, testPassword } from '../admin/form-client.js';
import { newKey, startServer, type TestServer } from '../http/harness.js';
import { hasChromium, launchChromium, warnIfNoChromium } from '../support/chromium.js';
import { recordingReceiver } from '../webhooks/recording-receiver.js';

warnIfNoChromium('page fit test');
const widths = [
  { name: 'a 1280×800 window', width: 1280, height: 800 },
  { name: 'a 390×844 phone', width: 390, height: 844 },
] as const;

/** How far the page is wider than the window (> 0: it scrolls sideways). Run in the page. */
const overflow = 'document.documentElement.scrollWidth - window.innerWidth';
/** The innermost elements that reach past the window's right edge, to say what to fix. */
const culprits =
  "[...document.querySelectorAll('main *')].filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1 && " +
  '![...e.children].some((c) => c.getBoundingClientRect().right > window.innerWidth + 1)).slice(0, 4)' +
  ".map((e) => e.tagName.toLowerCase() + (e.className ? '.' + e.className : '') + ' ' + (e.textContent || '').trim().slice(0, 40))";

describe.skipIf(!hasChromium)('every page fits the window at 1280 and 390 px, in headless Chromium', () => {
  let browser: Browser;
  let server: TestServer;
  let receiver: Awaited<ReturnType<typeof recordingReceiver>>;
  let page: Page;
  const paths: string[] = [];

  beforeAll(async () => {
    browser = await launchChromium();
    receiver = await recordingReceiver();
    server = await startServer('node', {
      rateLimit: false,
      webhooks: { sender: nodeWebhookSender(), allowPrivateTargets: true },
    });
    await setPassword(server, 'admin@acme.test');
    const api = (path: string, body: unknown) =>
      server.api('POST', path, {
        token: server.tokens.admin,
        body,
        headers: { 'idempotency-key': newKey() },
      });
    // A workspace as a team has it: ten members with long addresses, a webhook on a long URL with
    // deliveries, tokens with long names (a long name made the tokens table 1,369 px wide).
    for (let i = 0; i < 10; i++) {
      const created = await api('/api/v1/members', {
        email: `a.rather.long.member.address.number.${i}@engineering.example-company.test`,
        role: i % 3 === 0 ? 'admin' : 'member',
      });
      expect(created.status).toBe(201);
    }
    const hook = await api('/api/v1/webhooks', {
      url: `${receiver.url}/hooks/a/long/path/to/the/receiver/of/the/deployment/notifications`,
      eventTypes: ['issue.created', 'issue.updated', 'project.created'],
      description: 'Deploy notifier for the release train of the platform team',
    });
    expect(hook.status).toBe(201);
    for (let i = 0; i < 5; i++) {
      await api('/api/v1/issues', { projectId: server.ws.projectId, title: `Issue ${i}` });
    }
    await server.tracker.webhooks.dispatchDue();

    page = await browser.newPage({ viewport: widths[0] });
    await page.goto(`${server.url}/sign-in`);
    await page.getByLabel('Email').fill('admin@acme.test');
    await page.getByLabel('Password').fill(testPassword);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${server.url}/acme/admin`);
    for (const name of ['deploy bot of the release train (production)', 'nightly export to the warehouse']) {
      await page.goto(`${server.url}/acme/admin/api-tokens`);
      await page.getByLabel('Name').fill(name);
      await page.getByRole('button', { name: 'Create token' }).click();
      await page.getByRole('heading', { name: 'New token created' }).waitFor();
    }
    const webhookId = hook.json?.id as string;
    const deliveries = await server.api('GET', `/api/v1/webhooks/${webhookId}/deliveries?limit=1`, {
      token: server.tokens.admin,
    });
    const tokens = await server.storage.transaction((tx) => tx.tokens.list(server.ws.workspaceId));
    const members = await server.storage.transaction((tx) =>
      tx.tenancy.listMemberships(server.ws.workspaceId),
    );
    paths.push(
      '/',
      '/sign-in',
      '/acme/admin',
      '/acme/admin/api-tokens',
      `/acme/admin/api-tokens/${tokens[0]?.id}/revoke`,
      '/acme/admin/members',
      `/acme/admin/members/${members.find((m) => m.role === 'member')?.userId}/remove`,
      '/acme/admin/webhooks',
      `/acme/admin/webhooks/${webhookId}`,
      `/acme/admin/webhooks/${webhookId}/deliveries/${((deliveries.json?.data ?? []) as { id: string }[])[0]?.id}`,
      '/acme/admin/no-such-page',
      '/no-such-page',
      // The docs pages: the guide's wide tables and code blocks scroll inside their own box.
      '/docs',
      '/docs/guide',
    );
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await receiver?.close();
  });

  for (const size of widths) {
    it(`at ${size.name}, no page scrolls sideways`, async () => {
      await page.setViewportSize(size);
      const wide: string[] = [];
      for (const path of paths) {
        const answer = await page.goto(`${server.url}${path}`);
        expect(answer?.headers()['content-type'], path).toMatch(/^text\/html/);
        const by = await page.evaluate<number>(overflow);
        if (by > 0)
          wide.push(`${path}: ${by} px too wide (${(await page.evaluate<string[]>(culprits)).join('; ')})`);
      }
      expect(wide).toEqual([]);
    });
  }

  it('on a phone, ten members fit in a page of two fields a line', async () => {
    await page.setViewportSize(widths[1]);
    await page.goto(`${server.url}/acme/admin/members`);
    const height = await page.evaluate<number>('document.documentElement.scrollHeight');
    const rows = await page.evaluate<number[]>(
      "[...document.querySelectorAll('tbody tr')].map((row) => row.getBoundingClientRect().height)",
    );
    console.log(`members page on a 390 px phone: ${height} px for ${rows.length} members`);
    // A card per member was a field a line, ten or more lines of text with a long address; two short
    // fields a line, no label on the address or the button, make it about seven.
    const line = await page.evaluate<number>(
      'document.querySelector(\'tbody td[data-label="Tokens"]\').getBoundingClientRect().height',
    );
    for (const row of rows) expect(row).toBeLessThan(line * 8);
  });

  it('groups the event checkboxes by family, and a search field narrows them', async () => {
    await page.setViewportSize(widths[0]);
    await page.goto(`${server.url}/acme/admin/webhooks`);
    const groups = await page.evaluate<string[]>(
      "[...document.querySelectorAll('[data-event-group] > legend')].map((legend) => legend.textContent)",
    );
    const known = [
      'project',
      'outcome',
      'context',
      'decision',
      'issue',
      'issue relation',
      'time entry',
      'comment',
      'view',
      'member',
      'webhook',
    ];
    // These in this order, and a family added later (its events in the catalogue) where the catalogue has it.
    const catalogued = [...new Set(eventTypes.map((type) => (type.split('.')[0] ?? type).replace('_', ' ')))];
    expect(groups.filter((group) => known.includes(group))).toEqual(known);
    expect(groups).toEqual(catalogued);
    const visible =
      "[...document.querySelectorAll('[data-event]')].filter((e) => e.offsetParent !== null).map((e) => e.dataset.event)";
    expect((await page.evaluate<string[]>(visible)).length).toBeGreaterThan(20);
    await page.getByLabel('Find an event').fill('issue.');
    const shown = await page.evaluate<string[]>(visible);
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.every((type) => type.startsWith('issue.'))).toBe(true);
    // The groups left empty are hidden with their heading.
    expect(await page.getByRole('group', { name: 'project' }).isVisible()).toBe(false);
    await page.getByLabel('issue.created').check();
    await page.getByLabel('Find an event').fill('');
    expect((await page.evaluate<string[]>(visible)).length).toBeGreaterThan(20);
    expect(await page.getByLabel('issue.created').isChecked()).toBe(true);
  });
});
